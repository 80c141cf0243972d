package dev.dfx.runtime.subsystem.swimlane;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.CoreType;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.TaskView;

/** Writes one core task record per kernel run on its core's lane. Core thread only. */
final class SwimlaneCoreProbe implements CoreProbe {
    private final LaneWriter tasks;
    private final CoreTaskRecord.Encoder record = new CoreTaskRecord.Encoder();
    private final int core;
    private final CoreType type;

    SwimlaneCoreProbe(LaneWriter tasks, int core, CoreType type) {
        this.tasks = tasks;
        this.core = core;
        this.type = type;
    }

    @Override
    public void taskEnd(TaskView task, long startNs, long endNs, long[] counterDeltas, boolean failed) {
        long off = tasks.claim();
        if (off >= 0) {
            record.wrap(tasks.segment(), off).startNs(startNs).endNs(endNs).taskId(task.taskId())
                    .funcId(task.funcId()).coreId(core).coreType(type).flags(failed ? CoreTaskRecord.FLAG_FAILED : 0);
        }
    }

    @Override
    public void close() {
        tasks.flush();
    }
}
