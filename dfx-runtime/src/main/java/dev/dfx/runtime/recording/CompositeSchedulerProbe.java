package dev.dfx.runtime.recording;

import dev.dfx.record.ArgStage;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.runtime.probe.ArgCapture;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.probe.TaskView;
import java.util.List;

/** Hands every scheduler hook to each subsystem's scheduler probe in turn. Scheduler thread only. */
final class CompositeSchedulerProbe implements SchedulerProbe {
    private final SchedulerProbe[] probes;

    private CompositeSchedulerProbe(List<SchedulerProbe> probes) {
        this.probes = probes.toArray(SchedulerProbe[]::new);
    }

    /** @return {@link SchedulerProbe#NONE} when no subsystem observes schedulers, the one probe, or a composite */
    static SchedulerProbe of(List<SchedulerProbe> probes) {
        List<SchedulerProbe> live = probes.stream().filter(p -> p != SchedulerProbe.NONE).toList();
        return live.isEmpty() ? SchedulerProbe.NONE : live.size() == 1 ? live.getFirst()
                : new CompositeSchedulerProbe(live);
    }

    @Override
    public void taskFinished(TaskView task, int core, long dispatchNs, long finishNs) {
        for (SchedulerProbe p : probes) {
            p.taskFinished(task, core, dispatchNs, finishNs);
        }
    }

    @Override
    public void phase(SchedPhaseKind kind, long startNs, long endNs, int loopIter, int tasksProcessed, int popHit,
                      int popMiss, int[] depthsAtStart, int[] depthsAtEnd) {
        for (SchedulerProbe p : probes) {
            p.phase(kind, startNs, endNs, loopIter, tasksProcessed, popHit, popMiss, depthsAtStart, depthsAtEnd);
        }
    }

    @Override
    public void argCaptured(TaskView task, int argIndex, ArgStage stage, long timeNs) {
        for (SchedulerProbe p : probes) {
            p.argCaptured(task, argIndex, stage, timeNs);
        }
    }

    @Override
    public ArgCapture argCapture() {
        ArgCapture c = ArgCapture.NONE;
        for (SchedulerProbe p : probes) {
            c = c.union(p.argCapture());
        }
        return c;
    }

    @Override
    public void close() {
        for (SchedulerProbe p : probes) {
            p.close();
        }
    }
}
