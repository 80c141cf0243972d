package dev.dfx.runtime.recording;

import dev.dfx.chunk.ChunkInfo;
import dev.dfx.pipeline.DropCause;
import dev.dfx.pipeline.DropWindow;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.error.Count;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.subsystem.LaneInfo;
import dev.dfx.runtime.subsystem.LanePlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * Records the pipeline counted collected that never reached the disk: chunks the chunk writer had accepted (staged)
 * when a later write failed, a full disk for instance ({@link dev.dfx.chunk.ChunkWriter#lostChunks}). They move from
 * {@code collected} to {@code dropped}, cause {@value #CAUSE}, in the subsystem's report and in each lane's, so that
 * the summary's loss columns show them and {@code collected + dropped == total} still holds; each lost chunk of
 * timed records is a drop window from its first to its last record's time, where the data is missing. Records
 * whose own collector call failed to write them (the write that failed, and every later one the failed writer
 * refuses) are already dropped, as {@code collector} losses; they move to {@value #CAUSE} too ({@link Refused}), so
 * that a full disk is named as the cause of all it lost. Stateless.
 */
public final class WriteLoss {
    /** The drop cause of records lost to a failed write. */
    public static final String CAUSE = "write-failed";

    /**
     * Per pipeline lane, the records of collector calls that threw because their chunk file could not be written;
     * the pipeline counted them as {@code collector} drops. Thread-safe (collector workers add, the stopping thread
     * reads after the pipeline stopped).
     */
    public static final class Refused {
        private final Map<Integer, Long> perLane = new ConcurrentHashMap<>();

        /** Adds {@code records} of pipeline lane {@code lane}. */
        public void add(int lane, long records) {
            perLane.merge(lane, records, Long::sum);
        }

        /** @return the records refused on {@code lane} so far */
        long of(int lane) {
            return perLane.getOrDefault(lane, 0L);
        }
    }

    private static final String COLLECTOR = SubsystemReports.id(DropCause.COLLECTOR);

    private WriteLoss() {
    }

    /**
     * @param r    a subsystem's report from its pipeline stats
     * @param plan its lanes (a chunk names its lane by kind id and instance)
     * @param lost the chunks lost after their append succeeded
     * @param refused the records whose collector call threw because the write failed
     * @return as {@link #apply(RunManifest.SubsystemReport, ToIntFunction, List, Refused)}
     */
    static RunManifest.SubsystemReport apply(RunManifest.SubsystemReport r, LanePlan plan, List<ChunkInfo> lost,
                                             Refused refused) {
        return apply(r, c -> lane(plan, c), lost, refused);
    }

    /**
     * @param report  a subsystem's report from its pipeline stats
     * @param laneOf  the pipeline lane of a lost chunk, or -1 when none
     * @param lost    the chunks lost after their append succeeded ({@link dev.dfx.chunk.ChunkWriter#lostChunks})
     * @param refused the records whose collector call threw because the write failed
     * @return {@code report} with the lost chunks' records moved from collected to dropped and the refused records
     *         from the {@code collector} cause (at most what it counted per lane) to {@value #CAUSE}; {@code report}
     *         itself when nothing was lost
     */
    public static RunManifest.SubsystemReport apply(RunManifest.SubsystemReport report,
                                                    ToIntFunction<ChunkInfo> laneOf, List<ChunkInfo> lost,
                                                    Refused refused) {
        RunManifest.SubsystemReport r = moveRefused(report, refused);
        if (lost.isEmpty()) {
            return r;
        }
        Map<Integer, Long> perLane = new HashMap<>();
        Map<Integer, List<DropWindow>> windows = new HashMap<>();
        long all = 0;
        for (ChunkInfo c : lost) {
            int lane = laneOf.applyAsInt(c);
            perLane.merge(lane, (long) c.recordCount(), Long::sum);
            all += c.recordCount();
            if (c.recordCount() > 0 && c.firstTimestamp() > 0 && c.lastTimestamp() >= c.firstTimestamp()) {
                windows.computeIfAbsent(lane, k -> new ArrayList<>())
                        .add(new DropWindow(c.firstTimestamp(), c.lastTimestamp(), c.recordCount()));
            }
        }
        List<RunManifest.Lane> lanes = r.lanes().stream().map(l -> {
            long n = perLane.getOrDefault(l.lane(), 0L);
            return n == 0 ? l : new RunManifest.Lane(l.lane(), l.kind(), l.role(), l.instance(), l.total(),
                    l.collected() - n, plus(l.droppedByCause(), n), l.silentLoss(), l.backstopExpiries(), l.stalls(),
                    l.minFreeDepth(), l.collectNs(), l.collectLongestNs(), withWindows(l, windows.get(l.lane())),
                    l.freeDepth());
        }).toList();
        double perSecond = r.collected() == 0 ? 0 : r.recordsPerSecond() * (r.collected() - all) / r.collected();
        return new RunManifest.SubsystemReport(r.name(), r.total(), r.collected() - all, r.dropped() + all,
                plus(r.droppedByCause(), all), r.silentLoss(), r.reconciled(), r.backstopExpiries(), r.stalls(),
                perSecond, lanes, r.pools(), r.queues(), r.errors(), r.errorCount(), r.details());
    }

    /**
     * @param path     the chunk file, relative to the run directory
     * @param complete whether it was closed with its chunk index ({@link dev.dfx.chunk.ChunkWriter#complete})
     * @param onDisk   the records it holds: those appended less those of the lost chunks
     * @return run.json's entry for the chunk file: written, or not written with what a failed write left
     */
    public static OutputFile chunkFile(String path, boolean complete, long onDisk) {
        return complete ? OutputFile.written(path, onDisk) : new OutputFile(path, false, onDisk, "a write failed: "
                + Count.of(onDisk, "record") + " on disk, without a chunk index");
    }

    /** @return {@code r} with each lane's refused records moved from the collector cause to {@value #CAUSE} */
    private static RunManifest.SubsystemReport moveRefused(RunManifest.SubsystemReport r, Refused refused) {
        long all = 0;
        List<RunManifest.Lane> lanes = new ArrayList<>(r.lanes().size());
        for (RunManifest.Lane l : r.lanes()) {
            long n = Math.min(refused.of(l.lane()), l.droppedByCause().getOrDefault(COLLECTOR, 0L));
            all += n;
            lanes.add(n == 0 ? l : new RunManifest.Lane(l.lane(), l.kind(), l.role(), l.instance(), l.total(),
                    l.collected(), moved(l.droppedByCause(), n), l.silentLoss(), l.backstopExpiries(), l.stalls(),
                    l.minFreeDepth(), l.collectNs(), l.collectLongestNs(), l.drops(), l.freeDepth()));
        }
        return all == 0 ? r : new RunManifest.SubsystemReport(r.name(), r.total(), r.collected(), r.dropped(),
                moved(r.droppedByCause(), all), r.silentLoss(), r.reconciled(), r.backstopExpiries(), r.stalls(),
                r.recordsPerSecond(), lanes, r.pools(), r.queues(), r.errors(), r.errorCount(), r.details());
    }

    private static Map<String, Long> moved(Map<String, Long> byCause, long n) {
        Map<String, Long> m = plus(byCause, n);
        m.merge(COLLECTOR, -n, Long::sum);
        return m;
    }

    /** @return the pipeline lane whose chunks carry {@code c}'s kind id and lane (instance) number, or -1 */
    private static int lane(LanePlan plan, ChunkInfo c) {
        for (LaneInfo l : plan.lanes()) {
            if (l.kindId() == c.kind() && l.instance() == c.lane()) {
                return l.lane();
            }
        }
        return -1;
    }

    /** @return the lane's drops with the lost chunks' windows added (joined where they overlap) */
    private static RunManifest.Drops withWindows(RunManifest.Lane l, List<DropWindow> lost) {
        if (lost == null || l.drops() == null) {
            return l.drops();
        }
        List<DropWindow> all = new ArrayList<>(l.drops().windows());
        all.addAll(lost);
        return new RunManifest.Drops(l.drops().runs() + lost.size(),
                DropWindow.union(all, PipelineConfig.DEFAULT_MAX_DROP_WINDOWS));
    }

    private static Map<String, Long> plus(Map<String, Long> byCause, long n) {
        Map<String, Long> m = new LinkedHashMap<>(byCause);
        m.merge(CAUSE, n, Long::sum);
        return m;
    }
}
