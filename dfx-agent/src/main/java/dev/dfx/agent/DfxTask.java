package dev.dfx.agent;

import dev.dfx.java.TaskEvents;
import java.util.concurrent.Future;

/**
 * A task as the agent hands it to a thread pool in place of the submitted one: its submit was recorded when it was
 * made, and {@link #run()} records the run slice (and the flow's end) around the submitted task (not around a future
 * cancelled while it was queued, which does nothing). Never lets the
 * recording fail the task: a failure is reported once ({@link Hooks#failed}) and the task runs.
 */
public final class DfxTask implements Runnable {
    private final Runnable task;
    private final TaskNames names;
    private final long flow;

    DfxTask(Runnable task, TaskNames names, long flow) {
        this.task = task;
        this.names = names;
        this.flow = flow;
    }

    /** @return the task the application submitted */
    public Runnable task() {
        return task;
    }

    @Override
    public void run() {
        if (task instanceof Future<?> f && f.isDone()) {
            task.run(); // cancelled while queued: nothing runs, so no run slice (the flow ends nowhere)
            return;
        }
        long start = 0;
        boolean recorded = false;
        try {
            Hooks.fault(Hooks.FAULT_RUN);
            start = TaskEvents.runBegin(names.slice(), names.flow(), flow);
            recorded = true;
        } catch (Throwable t) {
            Hooks.failed("run", t);
        }
        try {
            task.run();
        } finally {
            if (recorded) {
                try {
                    TaskEvents.runEnd(names.slice(), names.flow(), flow, start);
                } catch (Throwable t) {
                    Hooks.failed("run", t);
                }
            }
        }
    }

    @Override
    public String toString() {
        return task.toString(); // a RejectedExecutionException's message names the application's task
    }
}
