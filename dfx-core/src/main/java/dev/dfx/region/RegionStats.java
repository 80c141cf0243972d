package dev.dfx.region;

import dev.dfx.pipeline.PipelineStats;
import java.util.List;
import java.util.Optional;

/**
 * A snapshot of a region host: the pipeline's counts, each lane's owner and state, each attached process, and the
 * TSC calibration. Live from {@link RegionHost#stats()}, final from {@link RegionHost#stop()}. Immutable.
 *
 * @param pipeline       the pipeline's counts and diagnostics (lanes by lane index, reconcile, errors)
 * @param lanes          every lane slot, by lane index
 * @param processes      every process that attached, in attach order
 * @param unlanedDropped records of threads that found every lane slot of their pool taken (never in any lane's
 *                       total; counted by the producers in the header)
 * @param exitDropped    records of virtual threads written after their JVM's exit hook had closed the lanes they
 *                       share (never in any lane's total; counted by the producers in the header)
 * @param tsc            the TSC calibration a producer published, if any and plausible
 */
public record RegionStats(PipelineStats pipeline, List<RegionLane> lanes, List<RegionProcess> processes,
        long unlanedDropped, long exitDropped, Optional<TscCalibration> tsc) {
    /** Copies the lists. */
    public RegionStats {
        lanes = List.copyOf(lanes);
        processes = List.copyOf(processes);
    }

    /** @return true when every lane reconciles ({@code collected + dropped == total}) and none failed */
    public boolean reconciled() {
        return pipeline.reconciled() && lanes.stream().noneMatch(l -> l.state() == LaneState.FAILED);
    }

    /** @return lanes in the given state */
    public List<RegionLane> lanes(LaneState state) {
        return lanes.stream().filter(l -> l.state() == state).toList();
    }
}
