package dev.dfx.rundir;

import dev.dfx.audit.CapacityAudit;
import dev.dfx.audit.LaneShortage;
import dev.dfx.audit.PoolObservation;
import dev.dfx.audit.RunAudit;
import dev.dfx.error.BadInputException;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.PipelineConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The capacity audit of a run from its manifest: turns run.json's pools ({@code config.pools[]} sizes,
 * {@code subsystems[].pools[]} watermarks and flow, {@code lanes[]} counts and stalls, {@code queues[]} backlogs)
 * into {@link PoolObservation}s and runs {@link CapacityAudit}. A run.json written before the flow was measured has
 * no {@code flow} (W unknown: the audit reads the watermarks only) and no {@code free_queue_slots} (then
 * {@link PipelineConfig#DEFAULT_FREE_QUEUE_SLOTS}, the only value dfx record has used). Stateless.
 */
public final class ManifestAudit {
    private ManifestAudit() {
    }

    /**
     * @param run a name for the run (its directory)
     * @param m   its manifest
     * @return the audit, one entry per pool of {@code config.pools[]}
     * @throws BadInputException when run.json's parts disagree (a pool with no lanes, no queue for a lane, a policy
     *                           other than block or drop), naming the field
     */
    public static RunAudit audit(String run, RunManifest m) {
        RunAudit a = CapacityAudit.audit(run, observations(run, m));
        LaneShortage lanes = laneShortage(m);
        return lanes == null ? a : a.withLanes(lanes);
    }

    /**
     * @return the records a program's threads lost because every lane slot was taken (the {@code user} subsystem's
     *         {@value ProgramReport#UNLANED} drops), with the lane slots its pool had; null when none were lost
     */
    private static LaneShortage laneShortage(RunManifest m) {
        RunManifest.SubsystemReport s = m.subsystem(ProgramReport.SUBSYSTEM);
        long unlaned = s == null ? 0 : s.droppedByCause().getOrDefault(ProgramReport.UNLANED, 0L);
        if (m.program() == null || unlaned <= 0) {
            return null;
        }
        int lanes = m.config().pools().stream().mapToInt(RunManifest.Pool::lanes).sum();
        return LaneShortage.of(s.name(), Math.max(1, lanes), unlaned);
    }

    /** @return one observation per pool of {@code config.pools[]} that belongs to a recorded subsystem */
    private static List<PoolObservation> observations(String run, RunManifest m) {
        BackpressurePolicy policy;
        try {
            policy = BackpressurePolicy.valueOf(m.config().policy().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(run + ": run.json config.policy is '" + m.config().policy()
                    + "', expected block or drop");
        }
        List<PoolObservation> out = new ArrayList<>();
        for (RunManifest.Pool pool : m.config().pools()) {
            RunManifest.SubsystemReport s = m.subsystem(pool.subsystem());
            if (s == null) {
                continue;  // a pool of a subsystem that did not report (the run ended before it started)
            }
            out.add(observe(run, policy, pool, s, pool.bufferKind()));
        }
        return out;
    }

    private static PoolObservation observe(String run, BackpressurePolicy policy, RunManifest.Pool pool,
            RunManifest.SubsystemReport s, String kind) {
        RunManifest.PoolWatermark w = s.pools().stream().filter(p -> p.kind().equals(kind)).findFirst()
                .orElseThrow(() -> new BadInputException(run + ": run.json config.pools lists " + pool.kind()
                        + " but subsystems[" + s.name() + "].pools has no " + kind));
        long total = 0;
        long dropped = 0;
        long stalls = 0;
        long stallNs = 0;
        long busiest = 0;
        int readyCapacity = Integer.MAX_VALUE;
        long maxReady = 0;
        int lanes = 0;
        for (RunManifest.Lane l : s.lanes()) {
            if (!l.kind().equals(kind)) {
                continue;
            }
            lanes++;
            total += l.total();
            dropped += l.droppedByCause().values().stream().mapToLong(Long::longValue).sum();
            stalls += l.stalls().count();
            stallNs += l.stalls().totalNs();
            busiest = Math.max(busiest, l.total());
            RunManifest.Queue q = s.queues().stream()
                    .filter(x -> x.role().equals(l.role()) && x.instance() == l.instance()).findFirst()
                    .orElseThrow(() -> new BadInputException(run + ": run.json subsystems[" + s.name() + "] lane "
                            + l.lane() + " (" + l.role() + " " + l.instance() + ") has no ready queue in queues"));
            readyCapacity = Math.min(readyCapacity, q.capacity());
            maxReady = Math.max(maxReady, q.maxReadyDepth());
        }
        if (lanes == 0) {
            throw new BadInputException(run + ": run.json config.pools lists " + pool.kind() + " but subsystems["
                    + s.name() + "].lanes has no lane of kind " + kind);
        }
        RunManifest.Flow f = w.flow();
        PoolObservation.Flow flow = f == null ? null : new PoolObservation.Flow(f.buffersDrained(),
                f.buffersPerSecond(), f.recycleMeanNs(), f.recycleMaxNs(), f.collectNs(), f.peakInFlight());
        int slots = w.freeQueueSlots() == null ? PipelineConfig.DEFAULT_FREE_QUEUE_SLOTS : w.freeQueueSlots();
        try {
            return new PoolObservation(s.name(), pool.kind(), policy, lanes, pool.buffersPerLane(),
                    pool.recordsPerBuffer(), pool.recordSize(), slots, w.minFreeDepth(), readyCapacity, maxReady,
                    total, dropped, stalls, stallNs, busiest, flow);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(run + ": run.json pool " + pool.kind() + ": " + e.getMessage(), e);
        }
    }
}
