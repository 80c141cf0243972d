package dev.dfx.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The capacity audit of one run: every pool's {@link PoolAudit}, and per subsystem the cell of the seed's
 * cross-example matrix. Immutable.
 *
 * @param run   the run's name (its directory)
 * @param pools per pool, in run.json order
 * @param lanes records lost for want of lane slots (a recorded program's threads), or null when none were
 */
public record RunAudit(String run, List<PoolAudit> pools, LaneShortage lanes) {

    /** Copies the list, so the record stays immutable. */
    public RunAudit {
        pools = List.copyOf(pools);
    }

    /** An audit with no lane shortage. */
    public RunAudit(String run, List<PoolAudit> pools) {
        this(run, pools, null);
    }

    /** @return this audit with a lane shortage */
    public RunAudit withLanes(LaneShortage shortage) {
        return new RunAudit(run, pools, shortage);
    }

    /**
     * One subsystem's cell of the cross-run matrix, {@code lowest-free/peak-ready dropN} (as the reference runtime's capacity audit prints it).
     *
     * @param subsystem  subsystem name
     * @param lowestFree lowest free-queue depth of any of its pools
     * @param peakReady  highest ready-queue backlog of any of its producers
     * @param dropped    records dropped
     * @param stalls     stalls
     * @param verdict    the weakest verdict of its pools
     */
    public record Cell(String subsystem, long lowestFree, long peakReady, long dropped, long stalls,
            Verdict verdict) {
    }

    /**
     * @return per subsystem, in order of first appearance, its matrix cell; a subsystem's drops include those of
     *         its threads that found no lane
     */
    public List<Cell> cells() {
        Map<String, List<PoolAudit>> bySubsystem = new LinkedHashMap<>();
        for (PoolAudit a : pools) {
            bySubsystem.computeIfAbsent(a.pool().subsystem(), s -> new ArrayList<>()).add(a);
        }
        List<Cell> cells = new ArrayList<>();
        bySubsystem.forEach((s, list) -> {
            long free = Long.MAX_VALUE;
            long ready = 0;
            long dropped = 0;
            long stalls = 0;
            Verdict v = Verdict.OVER_PROVISIONED;
            for (PoolAudit a : list) {
                free = Math.min(free, a.pool().minFreeDepth());
                ready = Math.max(ready, a.pool().maxReadyDepth());
                dropped += a.pool().dropped();
                stalls += a.pool().stalls();
                v = v.weaker(a.verdict());
            }
            if (lanes != null && lanes.subsystem().equals(s)) {
                dropped += lanes.dropped();
                v = v.weaker(Verdict.SHORT);
            }
            cells.add(new Cell(s, free, ready, dropped, stalls, v));
        });
        return cells;
    }
}
