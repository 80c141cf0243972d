package dev.dfx.runtime.recording;

import dev.dfx.record.ScopePhase;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.ScopeStats;
import dev.dfx.runtime.probe.TaskView;
import java.util.List;

/** Hands every orchestrator hook to each subsystem's orchestrator probe in turn. Orchestrator thread only. */
final class CompositeOrchestratorProbe implements OrchestratorProbe {
    private final OrchestratorProbe[] probes;

    private CompositeOrchestratorProbe(List<OrchestratorProbe> probes) {
        this.probes = probes.toArray(OrchestratorProbe[]::new);
    }

    /** @return {@link OrchestratorProbe#NONE} when no probe observes, the one probe, or a composite */
    static OrchestratorProbe of(List<OrchestratorProbe> probes) {
        List<OrchestratorProbe> live = probes.stream().filter(p -> p != OrchestratorProbe.NONE).toList();
        return live.isEmpty() ? OrchestratorProbe.NONE : live.size() == 1 ? live.getFirst()
                : new CompositeOrchestratorProbe(live);
    }

    @Override
    public void submitted(TaskView task, long startNs, long endNs, long windowWaitNs) {
        for (OrchestratorProbe p : probes) {
            p.submitted(task, startNs, endNs, windowWaitNs);
        }
    }

    @Override
    public boolean wantsScopeSites() {
        for (OrchestratorProbe p : probes) {
            if (p.wantsScopeSites()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void scope(ScopePhase phase, ScopeStats stats) {
        for (OrchestratorProbe p : probes) {
            p.scope(phase, stats);
        }
    }

    @Override
    public void close() {
        for (OrchestratorProbe p : probes) {
            p.close();
        }
    }
}
