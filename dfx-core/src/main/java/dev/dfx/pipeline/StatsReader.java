package dev.dfx.pipeline;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds {@link PipelineStats} snapshots: producer-owned counters read opaquely from the lanes' active heads
 * and ready queues (through the transport, so COPY mode reads the producers' memory), host counts from the
 * {@link HostLedger}, collector call times from each {@link CollectorLane}, the buffer flow (λ, W, collector time)
 * from the {@link RecycleMeter}, stall windows from each lane's {@link WindowLog}, drop windows from each lane's
 * {@link DropLog}s (for producers in other processes, those their drain shard observed), the queues' depth series
 * from their {@link DepthLog}s, and, in the final snapshot, the
 * records counted {@link DropCause#STOPPED} from the {@link StopProtocol}. Safe from any thread; a live snapshot is
 * not atomic across lanes. A lane's drop counters are read before its total: a lane still being written then never
 * shows more records accounted for than attempted.
 */
final class StatsReader {
    private final PipelineParts p;

    StatsReader(PipelineParts parts) {
        this.p = parts;
    }

    private static List<StallWindow> stallWindows(WindowLog log) {
        List<StallWindow> out = new ArrayList<>();
        log.forEach((start, end, unused) -> out.add(new StallWindow(start, end)));
        return out;
    }

    /**
     * @return the lane's drop windows: its writer's, the host's and, after stop, the window of the records stop
     *         counted {@link DropCause#STOPPED}, joined where they overlap and capped
     */
    private List<DropWindow> dropWindows(int lane, StopProtocol stop, long stoppedRecords, long producerDropped) {
        List<DropWindow> all = new ArrayList<>(p.producerDrops[lane].windows());
        List<DropWindow> observed = p.observedDrops[lane].windows();
        // a producer in another process whose counters went backwards could leave windows counting more than it now
        // claims: such windows are not kept, and its drops are all unplaced
        if (observed.stream().mapToLong(DropWindow::count).sum() <= producerDropped) {
            all.addAll(observed);
        }
        all.addAll(p.ledger.dropWindows(lane));
        if (stoppedRecords > 0) {
            all.add(stop.stoppedWindow(lane, stoppedRecords));
        }
        return DropWindow.union(all, p.config.maxDropWindows());
    }

    private long dropRuns(int lane, long stoppedRecords) {
        return p.producerDrops[lane].runs() + p.observedDrops[lane].runs() + p.ledger.dropRuns(lane) + (stoppedRecords > 0 ? 1 : 0);
    }

    /**
     * @param started   wall-clock start
     * @param stopped   wall-clock stop, or null for a live snapshot
     * @param elapsedNs running time so far (to the stop in a final snapshot), ns
     * @param stop      the stop that ended the pipeline, or null for a live snapshot
     */
    PipelineStats snapshot(Instant started, Instant stopped, long elapsedNs, StopProtocol stop) {
        RegionLayout layout = p.layout;
        HostTransport t = p.transport;
        List<LaneStats> lanes = new ArrayList<>();
        long[] minFree = new long[p.config.pools().size()];
        Arrays.fill(minFree, Long.MAX_VALUE);
        for (PipelineConfig.LaneSpec l : p.config.lanes()) {
            long b = layout.lane(l.lane());
            long laneMinFree = counter(l.lane(), b, RegionLayout.L_MIN_FREE, "minFreeDepth");
            minFree[l.kind()] = Math.min(minFree[l.kind()], laneMinFree);
            WindowLog log = p.stallLogs[l.lane()];
            CollectorLane c = p.collectorLanes[l.lane()];
            long collected = p.ledger.collected(l.lane());
            long push = counter(l.lane(), b, RegionLayout.L_DROPPED_PUSH, "droppedPushGate");
            long pop = counter(l.lane(), b, RegionLayout.L_DROPPED_POP, "droppedPopGate");
            long degraded = counter(l.lane(), b, RegionLayout.L_DROPPED_DEGRADED, "droppedDegraded");
            long collector = p.ledger.lostToCollector(l.lane());
            long exited = p.ledger.lostToExit(l.lane());
            long total = t.getLongAcquire(b + RegionLayout.L_TOTAL);
            if (total < 0) {
                p.errors.addOnce(beyondCount("lane " + l.lane(), "total", total));
                total = 0;
            }
            long stoppedRecords = stop == null ? 0
                    : stop.stoppedRecords(l.lane(), total, collected, push + pop + degraded + collector + exited);
            lanes.add(new LaneStats(l.lane(), l.kind(), l.producer(), total, collected, push, pop, degraded,
                    collector, exited, stoppedRecords,
                    counter(l.lane(), b, RegionLayout.L_EXPIRIES, "backstopExpiries"),
                    counter(l.lane(), b, RegionLayout.L_STALL_COUNT, "stallCount"),
                    counter(l.lane(), b, RegionLayout.L_STALL_TOTAL, "stallTotalNs"),
                    counter(l.lane(), b, RegionLayout.L_STALL_LONGEST, "stallLongestNs"),
                    stallWindows(log), log.omitted(), laneMinFree,
                    t.getIntOpaque(b + RegionLayout.L_DEGRADED) != 0, p.errors.laneFailure(l.lane()), c.callNs(),
                    c.longestCallNs(), dropWindows(l.lane(), stop, stoppedRecords, push + pop + degraded),
                    dropRuns(l.lane(), stoppedRecords), p.freeQueues[l.lane()].depthSamples()));
        }
        List<PoolStats> pools = new ArrayList<>();
        for (int k = 0; k < p.config.pools().size(); k++) {
            pools.add(new PoolStats(k, p.config.pools().get(k).name(),
                    minFree[k] == Long.MAX_VALUE ? 0 : minFree[k], p.store.allocated(k), p.config.freeQueueSlots(),
                    p.meter.drained(k), p.meter.recycled(k), p.meter.recycleTotalNs(k), p.meter.recycleMaxNs(k),
                    p.meter.collectNs(k), p.meter.peakInFlight(k)));
        }
        List<QueueStats> queues = new ArrayList<>();
        for (int q = 0; q < layout.producers(); q++) {
            long maxDepth = t.getLongOpaque(layout.readyQueue(q) + RegionLayout.RQ_MAX_DEPTH);
            if (maxDepth < 0) {
                p.errors.addOnce(beyondCount("ready queue " + q, "maxReadyDepth", maxDepth));
                maxDepth = 0;
            }
            queues.add(new QueueStats(q, layout.readyQueueSize(), maxDepth, p.readyDepths[q].samples()));
        }
        return new PipelineStats(p.config.name(), p.config.policy(), p.config.memoryMode(), started, stopped,
                elapsedNs, lanes, pools, queues, p.errors.messages(), p.errors.count(),
                stop == null ? List.of() : stop.stuck());
    }

    /**
     * @return the u64 counter (docs/region-abi.md, lane state) at {@code offset} of lane {@code lane}'s state. No
     *         count a producer keeps reaches 2^63, so a value with the top bit set is garbage a producer wrote: it
     *         reads as 0, and the errors say so once, with the value as the unsigned number it is
     */
    private long counter(int lane, long base, long offset, String field) {
        long v = p.transport.getLongOpaque(base + offset);
        if (v < 0) {
            p.errors.addOnce(beyondCount("lane " + lane, field, v));
            return 0;
        }
        return v;
    }

    private static String beyondCount(String where, String field, long value) {
        return where + ": field " + field + " is " + Long.toUnsignedString(value)
                + ", more than any count can reach (garbage a producer wrote); read as 0";
    }
}
