package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.pmu.accel.ActivityModel;
import dev.dfx.pmu.task.ThreadCounters;
import dev.dfx.runtime.probe.CounterSource;
import dev.dfx.runtime.probe.TaskView;
import java.util.List;

/**
 * A core thread's {@link CounterSource} over {@link ThreadCounters} (an event list). The runtime reads it just
 * before and just after each kernel; when the list has accelerator events, the read after a kernel first feeds the
 * task to the simulated accelerator's activity model ({@link ActivityModel#onTask}) on this thread, so that the
 * accelerator counters' deltas are the task's own activity. Core thread only.
 */
final class TaskEventSource implements CounterSource {
    private final ThreadCounters counters;
    private final List<String> names;
    private final ActivityModel model;
    private final int core;
    private TaskView task;
    private long startNs;
    private boolean beforeKernel;

    TaskEventSource(ThreadCounters counters, List<String> names, ActivityModel model, int core) {
        this.counters = counters;
        this.names = names;
        this.model = model;
        this.core = core;
    }

    /** The next read is the one before {@code t}'s kernel. */
    void taskStarted(TaskView t, long startNs) {
        this.task = t;
        this.startNs = startNs;
        this.beforeKernel = true;
    }

    @Override
    public int count() {
        return names.size();
    }

    @Override
    public String name(int i) {
        return names.get(i);
    }

    @Override
    public void read(long[] values) {
        if (beforeKernel) {
            beforeKernel = false;
        } else if (model != null && task != null) {
            model.onTask(task.taskId(), task.funcId(), core, Math.max(0, System.nanoTime() - startNs),
                    TaskWork.flops(task), TaskWork.bytes(task));
        }
        counters.sample(values);
    }

    /** Closes the thread's Linux counters. */
    void close() {
        counters.close();
    }
}
