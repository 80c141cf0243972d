package dev.dfx.pipeline;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An immutable snapshot of a pipeline's counts and diagnostics: {@link Pipeline#stats()} (live) or
 * {@link Pipeline#stop()} (final, reconciled).
 *
 * @param name       the pipeline (subsystem) name
 * @param policy     its backpressure policy
 * @param memoryMode its memory mode
 * @param started    wall-clock start
 * @param stopped    wall-clock stop, or {@code null} in a live snapshot
 * @param elapsedNs  running time from start to stop (to the snapshot in a live one), {@code System.nanoTime} ns
 * @param lanes      one entry per lane, by lane index
 * @param pools      one entry per buffer kind, by kind index
 * @param queues     one entry per producer's ready queue, by producer index
 * @param errors     host-side errors seen (corrupt queue indices or entries, collector or hook failures),
 *                   oldest first, at most {@link #MAX_ERRORS}
 * @param errorCount all errors seen, including those not kept in {@code errors}
 * @param stuck      host parts that {@link Pipeline#stop()} gave up waiting for, each named with what it was doing (a
 *                   collector call of a lane, the arena-ack hook, a host loop busy elsewhere); empty in a live
 *                   snapshot and after a clean stop
 */
public record PipelineStats(String name, BackpressurePolicy policy, MemoryMode memoryMode, Instant started,
        Instant stopped, long elapsedNs, List<LaneStats> lanes, List<PoolStats> pools, List<QueueStats> queues,
        List<String> errors, long errorCount, List<String> stuck) {

    /** Most error messages a snapshot keeps. */
    public static final int MAX_ERRORS = 100;

    /** Copies the lists, so the record stays immutable. */
    public PipelineStats {
        lanes = List.copyOf(lanes);
        pools = List.copyOf(pools);
        queues = List.copyOf(queues);
        errors = List.copyOf(errors);
        stuck = List.copyOf(stuck);
    }

    /** @return true when this is the final snapshot of a stopped pipeline */
    public boolean isFinal() {
        return stopped != null;
    }

    /** @return true when every lane has {@code collected + dropped == total} (zero silent loss) */
    public boolean reconciled() {
        return lanes.stream().allMatch(l -> l.silentLoss() == 0);
    }

    /** @return the sum of {@link LaneStats#total()} over all lanes */
    public long total() {
        return lanes.stream().mapToLong(LaneStats::total).sum();
    }

    /** @return the sum of {@link LaneStats#collected()} over all lanes */
    public long collected() {
        return lanes.stream().mapToLong(LaneStats::collected).sum();
    }

    /** @return the sum of {@link LaneStats#dropped()} over all lanes */
    public long dropped() {
        return lanes.stream().mapToLong(LaneStats::dropped).sum();
    }

    /**
     * @return the lane with the longest single collector call ({@link LaneStats#collectLongestNs()}), empty when no
     *         collector call ran: the lane to look at when the collector was slow
     */
    public Optional<LaneStats> slowestCollectorLane() {
        return lanes.stream().filter(l -> l.collectLongestNs() > 0)
                .max(Comparator.comparingLong(LaneStats::collectLongestNs));
    }
}
