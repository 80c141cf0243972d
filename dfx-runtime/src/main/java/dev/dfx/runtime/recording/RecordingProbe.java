package dev.dfx.runtime.recording;

import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import java.util.ArrayList;
import java.util.List;

/**
 * The recording's attachment to the runtime: each runtime thread's lane probe is the composite of the enabled
 * subsystems' probes for that thread (created on that thread, so each subsystem takes its own lane writers there),
 * plus, on the orchestrator, the {@link FunctionNames} collector.
 */
final class RecordingProbe implements Probe {
    private final List<SubsystemRecorder> recorders;
    private final FunctionNames names;

    RecordingProbe(List<SubsystemRecorder> recorders, FunctionNames names) {
        this.recorders = List.copyOf(recorders);
        this.names = names;
    }

    @Override
    public CoreProbe core(int core) {
        List<CoreProbe> l = new ArrayList<>();
        for (SubsystemRecorder r : recorders) {
            l.add(r.core(core));
        }
        return CompositeCoreProbe.of(l);
    }

    @Override
    public SchedulerProbe scheduler(int scheduler) {
        List<SchedulerProbe> l = new ArrayList<>();
        for (SubsystemRecorder r : recorders) {
            l.add(r.scheduler(scheduler));
        }
        return CompositeSchedulerProbe.of(l);
    }

    @Override
    public OrchestratorProbe orchestrator() {
        List<OrchestratorProbe> l = new ArrayList<>();
        l.add(names);
        for (SubsystemRecorder r : recorders) {
            l.add(r.orchestrator());
        }
        return CompositeOrchestratorProbe.of(l);
    }
}
