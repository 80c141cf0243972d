package dev.dfx.runtime.subsystem.swimlane;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.TaskView;

/** Writes one orchestrator phase record per submit (level 4). Orchestrator thread only. */
final class SwimlaneOrchestratorProbe implements OrchestratorProbe {
    private final LaneWriter submits;
    private final OrchPhaseRecord.Encoder record = new OrchPhaseRecord.Encoder();

    SwimlaneOrchestratorProbe(LaneWriter submits) {
        this.submits = submits;
    }

    @Override
    public void submitted(TaskView task, long startNs, long endNs, long windowWaitNs) {
        long off = submits.claim();
        if (off >= 0) {
            record.wrap(submits.segment(), off).startNs(startNs).endNs(endNs).taskId(task.taskId())
                    .submitIdx(task.submitIndex()).windowWaitNs(windowWaitNs);
        }
    }

    @Override
    public void close() {
        submits.flush();
    }
}
