package dev.dfx.agent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;

/**
 * The names a task is recorded under, from the class of the work it carries: the JDK's wrappers (a
 * {@code FutureTask}'s callable, an adapter's runnable, a {@code CompletableFuture} stage's function, a virtual
 * thread's task runner) are looked through, so that the slice of {@code pool.submit(new Resize())} is
 * {@code Resize}, not {@code FutureTask}. A class is named by its binary name without the package, and a hidden
 * class (a lambda) without its {@code /0x...} suffix: {@code Main$$Lambda}. Names are computed once per class and
 * shared, so that a lane's string table holds each once. Thread-safe.
 *
 * @param slice  the run slice's name, the class's
 * @param submit the submit instant's name, {@code "submit " + slice}
 * @param flow   the submit-to-run flow's name, the class's
 */
public record TaskNames(String slice, String submit, String flow) {
    /** Fields that hold the wrapped work, per JDK wrapper class; a class not here wraps nothing. */
    private static final String[][] WRAPPERS = {
        {"java.util.concurrent.FutureTask", "callable"},
        {"java.util.concurrent.Executors$RunnableAdapter", "task"},
        {"java.util.concurrent.ThreadPerTaskExecutor$TaskRunner", "task"},
        {"java.util.concurrent.ForkJoinTask$RunnableExecuteAction", "runnable"},
        {"java.util.concurrent.ForkJoinTask$AdaptedRunnable", "runnable"},
        {"java.util.concurrent.ForkJoinTask$AdaptedRunnableAction", "runnable"},
        {"java.util.concurrent.ForkJoinTask$AdaptedCallable", "callable"},
        {"java.util.concurrent.ForkJoinTask$AdaptedInterruptibleCallable", "callable"},
        {"java.util.concurrent.ForkJoinTask$AdaptedInterruptibleRunnable", "runnable"},
        // ForkJoinPool.schedule (Java 25): among them the virtual-thread scheduler's timeouts of timed parks
        {"java.util.concurrent.DelayScheduler$ScheduledForkJoinTask", "runnable"},
    };

    /** The virtual-thread scheduler's tasks (VirtualThread::runContinuation) are classes of VirtualThread. */
    private static final String SCHEDULER = "java.lang.VirtualThread";
    private static final String STAGE = "java.util.concurrent.CompletableFuture$";
    /** The names of the scheduler's tasks: not recorded ({@link #of} answers null). */
    private static final TaskNames SCHEDULER_TASK = new TaskNames("", "", "");

    /** What a class is to the agent: a wrapper (the field that holds the work it wraps) or the work (its names). */
    private record Kind(Field inner, TaskNames names) {
    }

    private static final ClassValue<Kind> KINDS = new ClassValue<>() {
        @Override
        protected Kind computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                // every async stage of a CompletableFuture (AsyncSupply, UniApply, BiAccept, ...) keeps its
                // function in "fn"
                String field = c.getName().startsWith(STAGE) ? "fn" : wrapped(c.getName());
                if (field != null) {
                    try {
                        Field f = c.getDeclaredField(field);
                        f.setAccessible(true); // java.util.concurrent is opened to the agent (Instrumenter)
                        return new Kind(f, null);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        break; // not a wrapper after all (or another JDK's field): the class names the task
                    }
                }
            }
            return new Kind(null, type.getName().startsWith(SCHEDULER) ? SCHEDULER_TASK : named(type));
        }
    };

    /**
     * {@code FutureTask.callable} and {@code Executors$RunnableAdapter.task}: the chain of every
     * {@code ExecutorService.submit}, read through constant handles that the JIT compiles to a field load (a
     * {@link Field} read through reflection costs a call); null when java.util.concurrent is not open to the agent.
     */
    private static final Class<?> ADAPTER = adapter();
    private static final VarHandle FUTURE_CALLABLE = handle(FutureTask.class, "callable", Callable.class);
    private static final VarHandle ADAPTER_TASK = ADAPTER == null ? null : handle(ADAPTER, "task", Runnable.class);

    private static Class<?> adapter() {
        try {
            return Class.forName("java.util.concurrent.Executors$RunnableAdapter", false, null);
        } catch (ClassNotFoundException | RuntimeException e) {
            return null;
        }
    }

    private static VarHandle handle(Class<?> owner, String field, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, field, type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // the reflective path of KINDS reads it, or names the wrapper
        }
    }

    private static String wrapped(String className) {
        for (String[] w : WRAPPERS) {
            if (w[0].equals(className)) {
                return w[1];
            }
        }
        return null;
    }

    private static TaskNames named(Class<?> type) {
        String n = type.getName();
        int slash = n.indexOf('/');
        if (slash >= 0) {
            n = n.substring(0, slash);
        }
        n = n.substring(n.lastIndexOf('.') + 1);
        return new TaskNames(n, "submit " + n, n);
    }

    /**
     * @param task a task as an executor got it
     * @return the names of the work it carries (at most four wrappers deep), or null for the virtual-thread
     *     scheduler's own tasks (a virtual thread's mount), which are recorded as the virtual thread's run
     */
    static TaskNames of(Object task) {
        Object work = task;
        if (task.getClass() == FutureTask.class && FUTURE_CALLABLE != null) {
            Object c = FUTURE_CALLABLE.get((FutureTask<?>) task);
            if (c != null) {
                work = c;
                if (c.getClass() == ADAPTER && ADAPTER_TASK != null) {
                    Object r = ADAPTER_TASK.get(c);
                    work = r != null ? r : c;
                }
            }
        }
        for (int depth = 0; depth < 4; depth++) {
            Kind k = KINDS.get(work.getClass());
            if (k.names() != null) {
                return k.names() == SCHEDULER_TASK ? null : k.names();
            }
            Object inner;
            try {
                inner = k.inner().get(work);
            } catch (IllegalAccessException e) {
                inner = null;
            }
            if (inner == null) {
                break; // a wrapper without work (a task that cleared its fields): named after the wrapper
            }
            work = inner;
        }
        return NAMES.get(work.getClass());
    }

    /** The names of a class, for a wrapper past the depth limit or without work: made once per class. */
    private static final ClassValue<TaskNames> NAMES = new ClassValue<>() {
        @Override
        protected TaskNames computeValue(Class<?> type) {
            return named(type);
        }
    };
}
