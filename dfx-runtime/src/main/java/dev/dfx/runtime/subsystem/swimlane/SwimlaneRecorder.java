package dev.dfx.runtime.subsystem.swimlane;

import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.RuntimeShape;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.subsystem.LanePlan;
import dev.dfx.runtime.subsystem.PipelineSettings;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.rundir.ThreadRole;

/**
 * The {@code swimlane} subsystem: levels (the reference's chip swimlane levels, strict supersets)
 * 1 core task records (one lane per core), 2 + scheduler task records (dispatch/finish, one lane per scheduler),
 * 3 + scheduler phase records (one lane per scheduler), 4 + orchestrator phase records (one per submit, one lane).
 * Its output is the swimlane of the trace export, read from {@code chunks/swimlane.dfx}.
 */
public final class SwimlaneRecorder extends SubsystemRecorder {
    /** Lowest and highest level. */
    public static final int MIN_LEVEL = 1, MAX_LEVEL = 4;

    private final RuntimeShape shape;

    /**
     * @param level    1..4
     * @param shape    the run's threads
     * @param settings pools and backpressure
     * @throws IllegalArgumentException when {@code level} is not 1..4
     */
    public SwimlaneRecorder(int level, RuntimeShape shape, PipelineSettings settings) {
        super(new LanePlan(Subsystem.SWIMLANE, settings));
        if (level < MIN_LEVEL || level > MAX_LEVEL) {
            throw new IllegalArgumentException("swimlane level " + level + " outside 1..4");
        }
        this.shape = shape;
        for (int c = 0; c < shape.cores(); c++) {
            plan.lane(CoreTaskRecord.KIND, ThreadRole.CORE, c);
        }
        for (int s = 0; s < shape.schedulers(); s++) {
            if (level >= 2) {
                plan.lane(SchedTaskRecord.KIND, ThreadRole.SCHEDULER, s);
            }
            if (level >= 3) {
                plan.lane(SchedPhaseRecord.KIND, ThreadRole.SCHEDULER, s);
            }
        }
        if (level >= 4) {
            plan.lane(OrchPhaseRecord.KIND, ThreadRole.ORCHESTRATOR, 0);
        }
    }

    @Override
    public CoreProbe core(int core) {
        return new SwimlaneCoreProbe(writer(plan.laneOf(CoreTaskRecord.KIND, ThreadRole.CORE, core)), core,
                shape.coreType(core));
    }

    @Override
    public SchedulerProbe scheduler(int scheduler) {
        int tasks = plan.laneOf(SchedTaskRecord.KIND, ThreadRole.SCHEDULER, scheduler);
        int phases = plan.laneOf(SchedPhaseRecord.KIND, ThreadRole.SCHEDULER, scheduler);
        if (tasks < 0 && phases < 0) {
            return SchedulerProbe.NONE;
        }
        return new SwimlaneSchedulerProbe(writer(tasks), writer(phases), scheduler);
    }

    @Override
    public OrchestratorProbe orchestrator() {
        int lane = plan.laneOf(OrchPhaseRecord.KIND, ThreadRole.ORCHESTRATOR, 0);
        return lane < 0 ? OrchestratorProbe.NONE : new SwimlaneOrchestratorProbe(writer(lane));
    }
}
