package dev.dfx.runtime.recording;

import dev.dfx.chunk.ChunkInfo;
import dev.dfx.pipeline.DropWindow;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.subsystem.LaneInfo;
import dev.dfx.runtime.subsystem.LanePlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records the pipeline counted collected that never reached the disk: chunks the chunk writer had accepted (staged)
 * when a later write failed, a full disk for instance ({@link dev.dfx.chunk.ChunkWriter#lostChunks}). They move from
 * {@code collected} to {@code dropped}, cause {@value #CAUSE}, in the subsystem's report and in each lane's, so that
 * the summary's loss columns show them and {@code collected + dropped == total} still holds; each lost chunk of
 * timed records is a drop window from its first to its last record's time, where the data is missing. Stateless.
 */
final class WriteLoss {
    /** The drop cause of records lost to a failed write after they were collected. */
    static final String CAUSE = "write-failed";

    private WriteLoss() {
    }

    /**
     * @param r    a subsystem's report from its pipeline stats
     * @param plan its lanes (a chunk names its lane by kind id and instance)
     * @param lost the chunks lost after their append succeeded
     * @return {@code r} with their records moved from collected to dropped; {@code r} itself when none were lost
     */
    static RunManifest.SubsystemReport apply(RunManifest.SubsystemReport r, LanePlan plan, List<ChunkInfo> lost) {
        if (lost.isEmpty()) {
            return r;
        }
        Map<Integer, Long> perLane = new HashMap<>();
        Map<Integer, List<DropWindow>> windows = new HashMap<>();
        long all = 0;
        for (ChunkInfo c : lost) {
            int lane = lane(plan, c);
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
