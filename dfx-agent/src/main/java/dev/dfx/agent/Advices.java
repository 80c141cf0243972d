package dev.dfx.agent;

import java.util.List;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ThreadPoolExecutor;
import net.bytebuddy.asm.Advice;

/**
 * The advice ByteBuddy inlines into the JDK's executors ({@link Instrumenter}): each calls one {@link Hooks} method,
 * which never throws; {@code suppress = Throwable.class} also keeps a linkage error of the advice itself out of the
 * application.
 */
final class Advices {
    private Advices() {
    }

    /** {@code ThreadPoolExecutor.execute(Runnable)}: the queued task is the recorded wrapper. */
    static final class Execute {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable command) {
            command = Hooks.wrap(command);
        }
    }

    /** {@code ThreadPoolExecutor.shutdownNow()}: hands back the application's own tasks. */
    static final class ShutdownNow {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Return List<Runnable> tasks) {
            Hooks.unwrap(tasks);
        }
    }

    /** {@code ThreadPoolExecutor.remove(Runnable)}: a task the application queued is found in its wrapper. */
    static final class Remove {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This ThreadPoolExecutor pool, @Advice.Argument(0) Runnable task,
                @Advice.Return(readOnly = false) boolean removed) {
            if (!removed) {
                removed = Hooks.removeWrapper(pool, task);
            }
        }
    }

    /** {@code ThreadPoolExecutor.purge()}: the wrappers of cancelled futures are removed too. */
    static final class Purge {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This ThreadPoolExecutor pool) {
            Hooks.purgeWrappers(pool);
        }
    }

    /** {@code ForkJoinTask.fork()} and {@code ForkJoinPool.poolSubmit(boolean, ForkJoinTask)}. */
    static final class Fork {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This ForkJoinTask<?> task) {
            Hooks.forked(task);
        }
    }

    /** {@code ForkJoinPool.poolSubmit(boolean, ForkJoinTask)}. */
    static final class PoolSubmit {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(1) ForkJoinTask<?> task) {
            Hooks.forked(task);
        }
    }

    /** {@code ForkJoinTask.doExec()}: the run slice, when the task is not done yet. */
    static final class DoExec {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static long enter(@Advice.This ForkJoinTask<?> task, @Advice.FieldValue("status") int status) {
            return Hooks.fjBegin(task, status);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        static void exit(@Advice.This ForkJoinTask<?> task, @Advice.Enter long start) {
            Hooks.fjEnd(task, start);
        }
    }

    /**
     * {@code ScheduledThreadPoolExecutor.delayedExecute(RunnableScheduledFuture)} (every schedule, execute and submit)
     * and {@code reExecutePeriodic(RunnableScheduledFuture)} (a periodic task queued again after a run).
     */
    static final class Schedule {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Runnable task) {
            Hooks.scheduled(task);
        }
    }

    /**
     * {@code ScheduledThreadPoolExecutor$ScheduledFutureTask.run()}: one run slice per run (a periodic task's too),
     * with the flow of the submit or re-queue before it, taken from the field the agent adds to the class.
     */
    static final class ScheduledRun {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static long enter(@Advice.This Runnable task,
                @Advice.FieldValue(value = Instrumenter.FLOW_FIELD, readOnly = false) long field,
                @Advice.Local("dfxNames") TaskNames names, @Advice.Local("dfxFlow") long flow) {
            flow = field;
            field = 0; // the run's own re-queue (a periodic task) stores the next run's flow
            names = Hooks.scheduledNames(task);
            return Hooks.runBegin(names, flow);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        static void exit(@Advice.Enter long start, @Advice.Local("dfxNames") TaskNames names,
                @Advice.Local("dfxFlow") long flow) {
            Hooks.runEnd(names, flow, start);
        }
    }

    /** {@code VirtualThread.start(ThreadContainer)}. */
    static final class VirtualStart {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Thread thread) {
            Hooks.virtualStart(thread);
        }
    }

    /**
     * {@code ThreadPerTaskExecutor.taskComplete(Thread)}: a virtual thread's run ends here, before its executor can
     * terminate.
     */
    static final class TaskComplete {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Thread thread) {
            Hooks.virtualTaskComplete(thread);
        }
    }

    /** {@code VirtualThread.run(Runnable)}: on the virtual thread, around its task. */
    static final class VirtualRun {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Hooks.VirtualRun enter(@Advice.Argument(0) Runnable task) {
            return Hooks.virtualBegin(task);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        static void exit(@Advice.Enter Hooks.VirtualRun run) {
            Hooks.virtualEnd(run);
        }
    }
}
