package dev.dfx.runtime.subsystem.swimlane;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.runtime.probe.ArgCapture;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.probe.TaskView;

/**
 * Writes scheduler task records (dispatch to finish, level 2) and scheduler phase records (level 3) on its
 * scheduler's lanes; a lane the level leaves out is null. Scheduler thread only.
 */
final class SwimlaneSchedulerProbe implements SchedulerProbe {
    private final LaneWriter tasks;
    private final LaneWriter phases;
    private final SchedTaskRecord.Encoder taskRecord = new SchedTaskRecord.Encoder();
    private final SchedPhaseRecord.Encoder phaseRecord = new SchedPhaseRecord.Encoder();
    private final int scheduler;

    SwimlaneSchedulerProbe(LaneWriter tasks, LaneWriter phases, int scheduler) {
        this.tasks = tasks;
        this.phases = phases;
        this.scheduler = scheduler;
    }

    @Override
    public void taskFinished(TaskView task, int core, long dispatchNs, long finishNs) {
        if (tasks == null) {
            return;
        }
        long off = tasks.claim();
        if (off >= 0) {
            taskRecord.wrap(tasks.segment(), off).dispatchNs(dispatchNs).finishNs(finishNs).taskId(task.taskId())
                    .funcId(task.funcId()).coreId(core).schedulerId(scheduler);
        }
    }

    @Override
    public void phase(SchedPhaseKind kind, long startNs, long endNs, int loopIter, int tasksProcessed, int popHit,
                      int popMiss, int[] depthsAtStart, int[] depthsAtEnd) {
        if (phases == null) {
            return;
        }
        long off = phases.claim();
        if (off >= 0) {
            phaseRecord.wrap(phases.segment(), off).startNs(startNs).endNs(endNs).loopIter(loopIter).kind(kind)
                    .tasksProcessed(tasksProcessed).popHit(popHit).popMiss(popMiss).depthsAtStart(depthsAtStart)
                    .depthsAtEnd(depthsAtEnd).schedulerId(scheduler);
        }
    }

    @Override
    public ArgCapture argCapture() {
        return ArgCapture.NONE;
    }

    @Override
    public void close() {
        if (tasks != null) {
            tasks.flush();
        }
        if (phases != null) {
            phases.flush();
        }
    }
}
