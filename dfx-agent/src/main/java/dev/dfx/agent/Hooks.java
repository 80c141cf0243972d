package dev.dfx.agent;

import dev.dfx.java.Dfx;
import dev.dfx.java.TaskEvents;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.ListIterator;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the instrumented JDK methods call (see {@link Instrumenter}): the submit and run of each executor task,
 * recorded with {@link TaskEvents}. Every hook catches everything: a failure is reported once on standard error
 * ({@link #failed}) and the application's call goes on as without the agent. Thread-safe.
 */
public final class Hooks {
    /** The name of the flow from a virtual thread's start to its run. */
    static final String VIRTUAL_FLOW = "virtual thread";
    private static final String VIRTUAL_START = "start virtual thread";
    /** {@code fjBegin}'s answer when the run is not recorded. */
    public static final long NOT_RECORDED = Long.MIN_VALUE;

    /**
     * Fault injection for the agent's own tests: {@code -Ddfx.agent.fault=submit}, {@code =run} (the hooks throw) or
     * {@code =instrument} (instrumenting ThreadPoolExecutor throws).
     */
    static final String FAULT_SUBMIT = "submit", FAULT_RUN = "run", FAULT_INSTRUMENT = "instrument";
    private static final String FAULT = System.getProperty("dfx.agent.fault", "");
    private static final AtomicBoolean REPORTED = new AtomicBoolean();

    private Hooks() {
    }

    /** Throws where the fault-injection property asks for a failing hook. */
    static void fault(String where) {
        if (FAULT.equals(where)) {
            throw new IllegalStateException("dfx.agent.fault=" + where);
        }
    }

    /** @return {@code passed}, after {@link #fault(String)} */
    static <T> T fault(String where, T passed) {
        fault(where);
        return passed;
    }

    /**
     * Reports a failure of the agent once per JVM on standard error; the task goes on unrecorded.
     *
     * @param where the hook ("submit", "run", "instrument ...")
     * @param t     what it threw
     */
    public static void failed(String where, Throwable t) {
        if (REPORTED.compareAndSet(false, true)) {
            System.err.println("dfx agent: " + where + " hook failed (" + t + "); tasks run on, some unrecorded");
        }
    }

    /**
     * Reports, once per JVM as {@link #failed}, a class the agent could not instrument: it runs unchanged, its tasks
     * unrecorded.
     *
     * @param type the class's name
     */
    static void instrumentFailed(String type, Throwable t) {
        if (REPORTED.compareAndSet(false, true)) {
            System.err.println("dfx agent: could not instrument " + type + " (" + t + "); its tasks run unrecorded");
        }
    }

    // ---- thread pools: the task is wrapped at execute() ----

    /**
     * {@code ThreadPoolExecutor.execute(Runnable)}: records the submit and returns the task to queue in place of
     * the application's (itself when not recording, already wrapped, or on failure).
     */
    public static Runnable wrap(Runnable task) {
        if (!Dfx.enabled() || task == null || task instanceof DfxTask) {
            return task;
        }
        try {
            fault(FAULT_SUBMIT);
            TaskNames n = TaskNames.of(task);
            return n == null ? task : new DfxTask(task, n, TaskEvents.submit(n.submit(), n.flow()));
        } catch (Throwable t) {
            failed("submit", t);
            return task;
        }
    }

    /** {@code ThreadPoolExecutor.shutdownNow()}: the list it returns holds the application's tasks again. */
    public static void unwrap(List<Runnable> tasks) {
        try {
            for (ListIterator<Runnable> it = tasks.listIterator(); it.hasNext();) {
                if (it.next() instanceof DfxTask d) {
                    it.set(d.task());
                }
            }
        } catch (Throwable t) {
            failed("shutdownNow", t);
        }
    }

    /**
     * {@code ThreadPoolExecutor.remove(task)} found nothing: removes the wrapper of {@code task} from the queue (through
     * {@code remove} itself, which then terminates the pool if it is shut down and empty, as for an unwrapped task).
     *
     * @return true when a wrapper of the task was queued and is removed
     */
    public static boolean removeWrapper(ThreadPoolExecutor pool, Runnable task) {
        try {
            for (Runnable r : pool.getQueue()) {
                if (r instanceof DfxTask d && d.task() == task) {
                    return pool.remove(d);
                }
            }
        } catch (Throwable t) {
            failed("remove", t);
        }
        return false;
    }

    /** {@code ThreadPoolExecutor.purge()}: removes the queued wrappers of cancelled futures, as purge does the futures. */
    public static void purgeWrappers(ThreadPoolExecutor pool) {
        try {
            pool.getQueue().removeIf(r -> r instanceof DfxTask d && d.task() instanceof Future<?> f && f.isCancelled());
        } catch (Throwable t) {
            failed("purge", t);
        }
    }

    // ---- fork/join: the flow id rides in a field the agent adds to ForkJoinTask ----

    /** {@code ForkJoinTask.fork()} and {@code ForkJoinPool.poolSubmit}: records the submit. */
    public static void forked(ForkJoinTask<?> task) {
        submitted(task, ForkJoinFlow.FIELD, ForkJoinTask.class);
    }

    /**
     * Records a task's submit and stores its flow id in the field the agent added to its class, before the task is
     * queued (the queue's release or lock publishes it to the thread that runs the task).
     *
     * @param field the added field; null when the class was loaded before the agent (no flow)
     * @param owner the class with the field: a task of another class (a decorated one) runs without a flow
     */
    private static void submitted(Object task, VarHandle field, Class<?> owner) {
        if (!Dfx.enabled() || task == null) {
            return;
        }
        try {
            fault(FAULT_SUBMIT);
            TaskNames n = TaskNames.of(task);
            if (n == null) {
                return;
            }
            long flow = TaskEvents.submit(n.submit(), n.flow());
            if (field != null && owner.isInstance(task)) {
                field.set(task, flow);
            }
        } catch (Throwable t) {
            failed("submit", t);
        }
    }

    /**
     * {@code ForkJoinTask.doExec()} begins.
     *
     * @param status the task's status field: negative when it is already done (then nothing runs)
     * @return the start, or {@link #NOT_RECORDED}
     */
    public static long fjBegin(ForkJoinTask<?> task, int status) {
        if (!Dfx.enabled() || status < 0) {
            return NOT_RECORDED;
        }
        try {
            fault(FAULT_RUN);
            TaskNames n = TaskNames.of(task);
            return n == null ? NOT_RECORDED : TaskEvents.runBegin(n.slice(), n.flow(), flow(task));
        } catch (Throwable t) {
            failed("run", t);
            return NOT_RECORDED;
        }
    }

    /** {@code ForkJoinTask.doExec()} returns or throws. */
    public static void fjEnd(ForkJoinTask<?> task, long start) {
        if (start == NOT_RECORDED) {
            return;
        }
        try {
            TaskNames n = TaskNames.of(task);
            long flow = flow(task);
            VarHandle f = ForkJoinFlow.FIELD;
            if (f != null) {
                f.set(task, 0L); // a task run again (reinitialize) has no submit of its own
            }
            TaskEvents.runEnd(n.slice(), n.flow(), flow, start);
        } catch (Throwable t) {
            failed("run", t);
        }
    }

    private static long flow(ForkJoinTask<?> task) {
        VarHandle f = ForkJoinFlow.FIELD;
        return f == null ? 0 : (long) f.get(task);
    }

    /** The field {@code dfx$flow} the agent adds to ForkJoinTask when it loads it; null when it could not. */
    static final class ForkJoinFlow {
        static final VarHandle FIELD = find();

        private static VarHandle find() {
            try {
                return MethodHandles.publicLookup().findVarHandle(ForkJoinTask.class, Instrumenter.FLOW_FIELD,
                        long.class);
            } catch (ReflectiveOperationException e) {
                return null; // ForkJoinTask was loaded before the agent: fork/join runs are recorded without flows
            }
        }
    }

    // ---- scheduled thread pools: the flow id rides in a field the agent adds to ScheduledFutureTask ----

    /**
     * {@code ScheduledThreadPoolExecutor.delayedExecute} and {@code reExecutePeriodic}: records the submit (a periodic
     * task's next run is submitted again by the run before it) and stores its flow in the task.
     */
    public static void scheduled(Runnable task) {
        submitted(task, ScheduledFlow.FIELD, ScheduledFlow.TASK);
    }

    /**
     * @param task a scheduled task about to run
     * @return its names, or null when its run is not recorded (not recording; the task is done or cancelled, so
     *     nothing runs; a failure)
     */
    public static TaskNames scheduledNames(Runnable task) {
        if (!Dfx.enabled() || ((Future<?>) task).isDone()) {
            return null;
        }
        try {
            fault(FAULT_RUN);
            return TaskNames.of(task);
        } catch (Throwable t) {
            failed("run", t);
            return null;
        }
    }

    /**
     * A task's run begins on the calling thread.
     *
     * @param names the task's names; null: not recorded
     * @param flow  its submit's flow, 0 when none
     * @return the start, or {@link #NOT_RECORDED}
     */
    public static long runBegin(TaskNames names, long flow) {
        if (names == null) {
            return NOT_RECORDED;
        }
        try {
            return TaskEvents.runBegin(names.slice(), names.flow(), flow);
        } catch (Throwable t) {
            failed("run", t);
            return NOT_RECORDED;
        }
    }

    /** The run {@link #runBegin} began ends (returns or throws). */
    public static void runEnd(TaskNames names, long flow, long start) {
        if (start == NOT_RECORDED || names == null) {
            return;
        }
        try {
            TaskEvents.runEnd(names.slice(), names.flow(), flow, start);
        } catch (Throwable t) {
            failed("run", t);
        }
    }

    /** The field {@code dfx$flow} the agent adds to ScheduledFutureTask when it loads it; null when it could not. */
    static final class ScheduledFlow {
        static final Class<?> TASK = task();
        static final VarHandle FIELD = find();

        private static Class<?> task() {
            try {
                return Class.forName(Instrumenter.SCHEDULED_TASK, false, null);
            } catch (ClassNotFoundException e) {
                return null;
            }
        }

        private static VarHandle find() {
            try {
                return MethodHandles.privateLookupIn(TASK, MethodHandles.lookup()).findVarHandle(TASK,
                        Instrumenter.FLOW_FIELD, long.class);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null; // loaded before the agent: the class is not instrumented (reported once)
            }
        }
    }

    // ---- virtual threads: the flow id is the thread's id ----

    /** {@code VirtualThread.start(ThreadContainer)}: records the start on the starting thread. */
    public static void virtualStart(Thread thread) {
        if (!Dfx.enabled()) {
            return;
        }
        try {
            fault(FAULT_SUBMIT);
            TaskEvents.submitVirtual(VIRTUAL_START, VIRTUAL_FLOW, thread.threadId());
        } catch (Throwable t) {
            failed("submit", t);
        }
    }

    /** A virtual thread's run being recorded: its task's names (read before the task clears its fields) and start. */
    public record VirtualRun(TaskNames names, long start) {
    }

    /**
     * The run the calling virtual thread records and has not ended yet: {@link #virtualEnd} and
     * {@link #virtualTaskComplete}, whichever comes first, take it and write its end; a thread's locals are its own,
     * so no other thread reads it.
     */
    private static final ThreadLocal<VirtualRun> RUNNING = new ThreadLocal<>();

    /**
     * {@code VirtualThread.run(Runnable)} begins, on the virtual thread.
     *
     * @return what {@link #virtualEnd} needs, or null when the run is not recorded
     */
    public static VirtualRun virtualBegin(Runnable task) {
        if (!Dfx.enabled()) {
            return null;
        }
        try {
            fault(FAULT_RUN);
            TaskNames n = TaskNames.of(task);
            if (n == null) {
                return null;
            }
            VirtualRun run = new VirtualRun(n, TaskEvents.runBegin(null, VIRTUAL_FLOW, 0));
            RUNNING.set(run);
            return run;
        } catch (Throwable t) {
            failed("run", t);
            return null;
        }
    }

    /**
     * {@code ThreadPerTaskExecutor.taskComplete(Thread)} (every {@code newVirtualThreadPerTaskExecutor} task, in a
     * {@code finally} after it ran): writes the run's end now, before the executor counts the task done. After this
     * call {@code close()} and {@code awaitTermination} may return and the program exit, which would otherwise
     * race {@link #virtualEnd}, run only after it, and lose the run's slice and flow end.
     *
     * @param thread the thread whose task is complete; nothing is written unless it is the calling virtual thread
     *               (a thread that failed to start is completed by the starting thread)
     */
    public static void virtualTaskComplete(Thread thread) {
        if (Dfx.enabled() && thread == Thread.currentThread() && thread.isVirtual()) {
            endRun();
        }
    }

    /** {@code VirtualThread.run(Runnable)} ends: the task's slice and the flow's end, unless already written. */
    public static void virtualEnd(VirtualRun run) {
        if (run != null) {
            endRun();
        }
    }

    /** Writes the end of the calling virtual thread's recorded run, once (a thread runs one task). */
    private static void endRun() {
        try {
            VirtualRun run = RUNNING.get();
            if (run != null) {
                RUNNING.remove();
                TaskEvents.runEnd(run.names().slice(), VIRTUAL_FLOW,
                        TaskEvents.virtualFlowId(Thread.currentThread().threadId()), run.start());
            }
        } catch (Throwable t) {
            failed("run", t);
        }
    }
}
