package dev.dfx.runtime.recording;

import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.CounterSource;
import dev.dfx.runtime.probe.TaskView;
import java.util.List;

/** Hands every core hook to each subsystem's core probe in turn; the first counter source wins. Core thread only. */
final class CompositeCoreProbe implements CoreProbe {
    private final CoreProbe[] probes;

    private CompositeCoreProbe(List<CoreProbe> probes) {
        this.probes = probes.toArray(CoreProbe[]::new);
    }

    /** @return {@link CoreProbe#NONE} when no subsystem observes cores, the one probe, or a composite */
    static CoreProbe of(List<CoreProbe> probes) {
        List<CoreProbe> live = probes.stream().filter(p -> p != CoreProbe.NONE).toList();
        return live.isEmpty() ? CoreProbe.NONE : live.size() == 1 ? live.getFirst() : new CompositeCoreProbe(live);
    }

    @Override
    public CounterSource counterSource() {
        for (CoreProbe p : probes) {
            CounterSource s = p.counterSource();
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    @Override
    public void taskStart(TaskView task, long startNs) {
        for (CoreProbe p : probes) {
            p.taskStart(task, startNs);
        }
    }

    @Override
    public void taskEnd(TaskView task, long startNs, long endNs, long[] counterDeltas, boolean failed) {
        for (CoreProbe p : probes) {
            p.taskEnd(task, startNs, endNs, counterDeltas, failed);
        }
    }

    @Override
    public void close() {
        for (CoreProbe p : probes) {
            p.close();
        }
    }
}
