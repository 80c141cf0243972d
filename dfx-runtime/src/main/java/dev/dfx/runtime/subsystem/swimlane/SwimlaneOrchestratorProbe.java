package dev.dfx.runtime.subsystem.swimlane;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.TaskView;

/** Writes one orchestrator phase record per submit (level 4). Orchestrator thread only. */
final class SwimlaneOrchestratorProbe implements OrchestratorProbe {
    private final LaneWriter submits;

    SwimlaneOrchestratorProbe(LaneWriter submits) {
        this.submits = submits;
    }

    @Override
    public void submitted(TaskView task, long startNs, long endNs, long windowWaitNs) {
        long off = submits.claim();
        if (off >= 0) {
            OrchPhaseRecord.write(submits.segment(), off, startNs, endNs, task.taskId(), task.submitIndex(),
                    windowWaitNs);
        }
    }

    @Override
    public void close() {
        submits.flush();
    }
}
