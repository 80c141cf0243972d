package dev.dfx.agent;

import java.lang.reflect.Field;

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
    };

    /** The virtual-thread scheduler's tasks (VirtualThread::runContinuation) are classes of VirtualThread. */
    private static final String SCHEDULER = "java.lang.VirtualThread";
    private static final String STAGE = "java.util.concurrent.CompletableFuture$";

    private static final ClassValue<Field> INNER = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                // every async stage of a CompletableFuture (AsyncSupply, UniApply, BiAccept, ...) keeps its
                // function in "fn"
                String field = c.getName().startsWith(STAGE) ? "fn" : wrapped(c.getName());
                if (field != null) {
                    try {
                        Field f = c.getDeclaredField(field);
                        f.setAccessible(true); // java.util.concurrent is opened to the agent (Instrumenter)
                        return f;
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        return null; // not a wrapper after all (or another JDK's field): the class names the task
                    }
                }
            }
            return null;
        }
    };

    private static String wrapped(String className) {
        for (String[] w : WRAPPERS) {
            if (w[0].equals(className)) {
                return w[1];
            }
        }
        return null;
    }

    private static final ClassValue<TaskNames> NAMES = new ClassValue<>() {
        @Override
        protected TaskNames computeValue(Class<?> type) {
            String n = type.getName();
            int slash = n.indexOf('/');
            if (slash >= 0) {
                n = n.substring(0, slash);
            }
            n = n.substring(n.lastIndexOf('.') + 1);
            return new TaskNames(n, "submit " + n, n);
        }
    };

    /**
     * @param task a task as an executor got it
     * @return the names of the work it carries (at most four wrappers deep), or null for the virtual-thread
     *     scheduler's own tasks (a virtual thread's mount), which are recorded as the virtual thread's run
     */
    static TaskNames of(Object task) {
        Object work = task;
        for (int depth = 0; depth < 4 && work != null; depth++) {
            Field f = INNER.get(work.getClass());
            if (f == null) {
                break;
            }
            try {
                Object inner = f.get(work);
                if (inner == null) {
                    break;
                }
                work = inner;
            } catch (IllegalAccessException e) {
                break;
            }
        }
        Class<?> type = (work == null ? task : work).getClass();
        return type.getName().startsWith(SCHEDULER) ? null : NAMES.get(type);
    }

    /** @return the names of a class (for tasks that name themselves, such as a virtual thread's start) */
    static TaskNames ofClass(Class<?> type) {
        return NAMES.get(type);
    }
}
