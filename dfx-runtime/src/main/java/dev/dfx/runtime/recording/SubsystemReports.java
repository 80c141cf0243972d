package dev.dfx.runtime.recording;

import dev.dfx.pipeline.DropCause;
import dev.dfx.pipeline.LaneStats;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.pipeline.PoolStats;
import dev.dfx.pipeline.QueueStats;
import dev.dfx.pipeline.StallWindow;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.subsystem.LaneInfo;
import dev.dfx.runtime.subsystem.LanePlan;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Turns a pipeline's stats into its run.json report, naming lanes and queues by their writer threads: a subsystem of
 * the built-in runtime, or the user events of a region's producers. Stateless.
 */
public final class SubsystemReports {
    private SubsystemReports() {
    }

    /**
     * How run.json names a lane's writer.
     *
     * @param kind     buffer kind name
     * @param role     writer thread role ({@code core}, {@code scheduler}, {@code orchestrator}, or
     *                 {@value dev.dfx.rundir.ProgramReport#ROLE} for a producer's thread)
     * @param instance which thread of the role
     */
    public record LaneName(String kind, String role, int instance) {
    }

    /**
     * @param r              the subsystem
     * @param s              its stats (final, or live while running)
     * @param workloadWallNs workload run time, for records/s (0: unknown)
     */
    static RunManifest.SubsystemReport of(SubsystemRecorder r, PipelineStats s, long workloadWallNs) {
        LanePlan plan = r.plan();
        return of(r.id().id(), s, workloadWallNs, lane -> {
            LaneInfo info = plan.lane(lane);
            return new LaneName(info.kind().name(), info.role().id(), info.instance());
        }, producer -> {
            LaneInfo writer = plan.lanes().stream().filter(l -> l.producer() == producer).findFirst().orElseThrow();
            return new LaneName(writer.kind().name(), writer.role().id(), writer.instance());
        }, r.details());
    }

    /**
     * @param name           the subsystem's name
     * @param s              its pipeline's stats (final, or live while running)
     * @param workloadWallNs the producers' run time, for records/s (0: unknown)
     * @param lanes          names the writer of a lane, by lane index
     * @param producers      names the writer thread of a ready queue, by producer index
     * @param details        subsystem-specific facts
     * @return the report
     */
    public static RunManifest.SubsystemReport of(String name, PipelineStats s, long workloadWallNs,
                                                 IntFunction<LaneName> lanes, IntFunction<LaneName> producers,
                                                 Map<String, Object> details) {
        List<RunManifest.Lane> laneReports = new ArrayList<>();
        long[] causes = new long[DropCause.values().length];
        long expiries = 0;
        long stalls = 0;
        long stallNs = 0;
        long longest = 0;
        long omitted = 0;
        for (LaneStats l : s.lanes()) {
            LaneName info = lanes.apply(l.lane());
            for (DropCause c : DropCause.values()) {
                causes[c.ordinal()] += l.dropped(c);
            }
            expiries += l.backstopExpiries();
            stalls += l.stallCount();
            stallNs += l.stallTotalNs();
            longest = Math.max(longest, l.stallLongestNs());
            omitted += l.stallWindowsOmitted();
            List<RunManifest.Window> windows = new ArrayList<>(l.stallWindows().size());
            for (StallWindow w : l.stallWindows()) {
                windows.add(new RunManifest.Window(w.startNs(), w.endNs()));
            }
            laneReports.add(new RunManifest.Lane(l.lane(), info.kind(), info.role(), info.instance(), l.total(),
                    l.collected(), causes(l), l.silentLoss(), l.backstopExpiries(),
                    new RunManifest.Stalls(l.stallCount(), l.stallTotalNs(), l.stallLongestNs(), windows,
                            l.stallWindowsOmitted()), l.minFreeDepth(), l.collectNs(), l.collectLongestNs(),
                    new RunManifest.Drops(l.dropRuns(), l.dropWindows()), l.freeDepthSamples()));
        }
        Map<String, Long> byCause = new LinkedHashMap<>();
        for (DropCause c : DropCause.values()) {
            byCause.put(id(c), causes[c.ordinal()]);
        }
        List<RunManifest.PoolWatermark> pools = new ArrayList<>();
        for (PoolStats p : s.pools()) {
            pools.add(new RunManifest.PoolWatermark(p.name(), p.minFreeDepth(), p.buffersAllocated(),
                    p.freeQueueSlots(), flow(p, s.elapsedNs(), workloadWallNs)));
        }
        List<RunManifest.Queue> queues = new ArrayList<>();
        for (QueueStats q : s.queues()) {
            LaneName writer = producers.apply(q.producer());
            queues.add(new RunManifest.Queue(writer.role(), writer.instance(), q.capacity(), q.maxReadyDepth(),
                    q.readyDepthSamples()));
        }
        double perSecond = workloadWallNs > 0 ? s.collected() * 1e9 / workloadWallNs : 0;
        return new RunManifest.SubsystemReport(name, s.total(), s.collected(), s.dropped(), byCause,
                s.total() - s.collected() - s.dropped(), s.reconciled(), expiries,
                new RunManifest.Stalls(stalls, stallNs, longest, List.of(), omitted), perSecond, laneReports, pools,
                queues, s.errors(), s.errorCount(), details);
    }

    /** λ over workload time when known (as records/s), else over the pipeline's running time. */
    private static RunManifest.Flow flow(PoolStats p, long elapsedNs, long workloadWallNs) {
        return new RunManifest.Flow(p.buffersDrained(), p.buffersPerSecond(workloadWallNs > 0 ? workloadWallNs
                : elapsedNs), p.buffersRecycled(), p.recycleMeanNs(), p.recycleMaxNs(), p.collectNs(), elapsedNs,
                p.peakInFlight());
    }

    private static Map<String, Long> causes(LaneStats l) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (DropCause c : DropCause.values()) {
            m.put(id(c), l.dropped(c));
        }
        return m;
    }

    /**
     * @return {@code push_gate}, {@code pop_gate}, {@code degraded}, {@code collector}, {@code producer_exited},
     *         {@code stopped}
     */
    static String id(DropCause c) {
        return c.name().toLowerCase(Locale.ROOT);
    }
}
