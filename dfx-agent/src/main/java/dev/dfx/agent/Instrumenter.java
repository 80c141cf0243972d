package dev.dfx.agent;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the agent's advice into the JDK (loaded from the boot class path, so that java.base can call
 * {@link Hooks}):
 *
 * <ul>
 *   <li>{@code ThreadPoolExecutor.execute(Runnable)} queues a {@link DfxTask} in place of the task (every
 *       {@code submit}, {@code invokeAll}, {@code invokeAny} of a thread pool goes through it), and
 *       {@code shutdownNow()} hands back the application's own tasks, {@code remove(task)} finds a queued task in its
 *       wrapper and {@code purge()} removes the wrappers of cancelled futures;</li>
 *   <li>{@code ForkJoinTask.fork()}, {@code ForkJoinPool.poolSubmit(...)} (execute, submit, invoke, and
 *       CompletableFuture's async stages on the common pool) record the submit, {@code ForkJoinTask.doExec()} the
 *       run; the flow id rides in a public field {@value #FLOW_FIELD} the agent adds to ForkJoinTask as the JVM
 *       loads it;</li>
 *   <li>{@code VirtualThread.start(ThreadContainer)} records the start, {@code VirtualThread.run(Runnable)} the
 *       task's run on the virtual thread; for a thread of a {@code ThreadPerTaskExecutor} the run's end is written
 *       at {@code taskComplete(Thread)}, before the executor can count the task done (its {@code close()} return and
 *       the program exit).</li>
 * </ul>
 * A class that cannot be instrumented is reported once on standard error ({@link Hooks#failed}); the others still
 * are, and the application runs as without the agent.
 */
public final class Instrumenter {
    /** The field added to ForkJoinTask and ScheduledFutureTask: the flow id of its submit, 0 when none. */
    static final String FLOW_FIELD = "dfx$flow";
    static final String FORK_JOIN_TASK = "java.util.concurrent.ForkJoinTask";
    static final String SCHEDULED_TASK = "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask";
    /** The executor of {@code Executors.newVirtualThreadPerTaskExecutor()} and {@code newThreadPerTaskExecutor}. */
    static final String THREAD_PER_TASK = "java.util.concurrent.ThreadPerTaskExecutor";

    private Instrumenter() {
    }

    /**
     * @param inst     the JVM's instrumentation
     * @param agentJar the agent's jar (where the advice's class files are read)
     */
    public static void install(Instrumentation inst, File agentJar) throws IOException, ClassNotFoundException {
        Module base = Object.class.getModule();
        Module ours = Hooks.class.getModule();
        // java.base calls the hooks (reads), and TaskNames looks into the JDK's task wrappers (opens).
        inst.redefineModule(base, Set.of(ours), Map.of(),
                Map.of("java.util.concurrent", Set.of(ours), "java.lang", Set.of(ours)), Set.of(), Map.of());
        AdviceSource advice = new AdviceSource(new ClassFileLocator.Compound(ClassFileLocator.ForJarFile.of(agentJar),
                ClassFileLocator.ForClassLoader.ofSystemLoader()));
        AgentBuilder.Listener errors = new AgentBuilder.Listener.Adapter() {
            @Override
            public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
                    Throwable throwable) {
                Hooks.instrumentFailed(typeName, throwable);
            }
        };

        // Classes that get a field can only be changed as they load: those loaded before the agent are reported.
        Set<String> loaded = new java.util.HashSet<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getName().equals(FORK_JOIN_TASK) || c.getName().equals(SCHEDULED_TASK)) {
                loaded.add(c.getName());
            }
        }
        AgentBuilder.Identified.Extendable withFields = new AgentBuilder.Default()
                .ignore(none())
                .with(errors)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .type(named(FORK_JOIN_TASK))
                .transform((b, type, loader, module, pd) -> forkJoinTask(b, advice))
                .type(named(SCHEDULED_TASK))
                .transform((b, type, loader, module, pd) -> b.defineField(FLOW_FIELD, long.class, Visibility.PUBLIC)
                        .visit(advice.to("ScheduledRun").on(named("run").and(takesArguments(0)))));
        if (loaded.size() < 2) {
            withFields.installOn(inst);
            // Loaded here, transformed by the builder just installed: loaded later while the builder below
            // retransforms ForkJoinPool, they would be passed over by ByteBuddy's circularity lock.
            for (String c : new String[] {FORK_JOIN_TASK, SCHEDULED_TASK}) {
                if (!loaded.contains(c)) {
                    Class.forName(c, false, null);
                }
            }
        }

        // Loaded now, so that they are retransformed: a class loaded while ByteBuddy transforms another one (the
        // VirtualThread scheduler's ForkJoinPool, say) is passed over by its circularity lock.
        for (String c : new String[] {"java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.ForkJoinPool",
            "java.util.concurrent.ScheduledThreadPoolExecutor", "java.lang.VirtualThread", THREAD_PER_TASK}) {
            Class.forName(c, false, null);
        }
        new AgentBuilder.Default()
                .ignore(none())
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.TypeStrategy.Default.REDEFINE)
                .with(errors)
                .with(Boolean.getBoolean("dfx.agent.debug") ? AgentBuilder.Listener.StreamWriting.toSystemError()
                        .withTransformationsOnly() : AgentBuilder.Listener.NoOp.INSTANCE)
                .type(named("java.util.concurrent.ThreadPoolExecutor"))
                .transform((b, type, loader, module, pd) -> Hooks.fault(Hooks.FAULT_INSTRUMENT, b)
                        .visit(advice.to("Execute")
                                .on(named("execute").and(takesArguments(Runnable.class))))
                        .visit(advice.to("ShutdownNow")
                                .on(named("shutdownNow").and(takesArguments(0))))
                        .visit(advice.to("Remove")
                                .on(named("remove").and(takesArguments(Runnable.class))))
                        .visit(advice.to("Purge")
                                .on(named("purge").and(takesArguments(0)))))
                .type(named("java.util.concurrent.ForkJoinPool"))
                .transform((b, type, loader, module, pd) -> b
                        .visit(advice.to("PoolSubmit")
                                .on(named("poolSubmit").and(takesArguments(2))
                                        .and(takesArgument(1, named("java.util.concurrent.ForkJoinTask"))))))
                .type(named("java.util.concurrent.ScheduledThreadPoolExecutor"))
                .transform((b, type, loader, module, pd) -> b
                        .visit(advice.to("Schedule")
                                .on(named("delayedExecute").or(named("reExecutePeriodic")).and(takesArguments(1)))))
                .type(named("java.lang.VirtualThread"))
                .transform((b, type, loader, module, pd) -> b
                        .visit(advice.to("VirtualStart")
                                .on(named("start").and(takesArguments(1))))
                        .visit(advice.to("VirtualRun")
                                .on(named("run").and(takesArguments(Runnable.class)))))
                .type(named(THREAD_PER_TASK))
                .transform((b, type, loader, module, pd) -> b
                        .visit(advice.to("TaskComplete")
                                .on(named("taskComplete").and(takesArguments(Thread.class)))))
                .installOn(inst);
        for (String c : loaded) {
            Hooks.instrumentFailed(c, new IllegalStateException("loaded before the agent"));
        }
    }

    private static DynamicType.Builder<?> forkJoinTask(DynamicType.Builder<?> b, AdviceSource advice) {
        return b.defineField(FLOW_FIELD, long.class, Visibility.PUBLIC)
                .visit(advice.to("Fork").on(named("fork").and(takesArguments(0))))
                .visit(advice.to("DoExec").on(named("doExec").and(takesArguments(0))));
    }

    /**
     * The advice classes, described from their class files: describing a loaded advice class would load the JDK
     * types in its signatures (ForkJoinTask), which fails while that very class is being loaded and transformed.
     */
    private record AdviceSource(ClassFileLocator locator, TypePool pool) {
        AdviceSource(ClassFileLocator locator) {
            this(locator, TypePool.Default.of(locator));
        }

        Advice to(String nested) {
            return Advice.to(pool.describe(Advices.class.getName() + "$" + nested).resolve(), locator);
        }
    }
}
