package dev.dfx.bench.runtime;

import dev.dfx.runtime.Kernel;
import dev.dfx.runtime.Orchestrator;
import dev.dfx.runtime.workload.Workload;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A workload that notes the process CPU time (all threads, ns) when its program starts (on the orchestrator, once
 * the runtime threads and the recording's pipelines run) and when its check begins (after every task retired and
 * the runtime threads ended, before the pipelines stop): the CPU the run cost, recording included, exports not;
 * and how much of it the JIT compilers and the garbage collectors took (a JVM that runs many recordings keeps
 * compiling for a long time, and its compiler threads take CPU from the workload).
 * Not thread-safe beyond the runtime's own order (program, then check).
 */
final class CpuTimedWorkload implements Workload {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final Workload inner;
    /** Samples the dfx threads' CPU time in the same window (null: not asked for). */
    private final ThreadCpuSampler threads;
    private Map<String, Long> threadNs = Map.of();
    private volatile long startCpu;
    private volatile long endCpu;
    private volatile long startJit;
    private volatile long endJit;
    private volatile long startGc;
    private volatile long endGc;

    /**
     * @param inner   the workload
     * @param threads whether to measure each dfx thread's CPU time too ({@link #threadNs()}; a sampling thread
     *                costs about 1 % of a CPU meanwhile)
     */
    CpuTimedWorkload(Workload inner, boolean threads) {
        this.inner = inner;
        this.threads = threads ? new ThreadCpuSampler() : null;
    }

    /** @return ns of CPU time per dfx thread role in the window ({@link ThreadCpuSampler#stop}; empty unless asked) */
    Map<String, Long> threadNs() {
        return threadNs;
    }

    /** @return process CPU ns from program start to the check */
    long cpuNs() {
        return endCpu - startCpu;
    }

    /** @return ms the JIT compilers spent meanwhile (their threads' share of {@link #cpuNs()}) */
    long jitMs() {
        return endJit - startJit;
    }

    /** @return ms the garbage collectors reported meanwhile */
    long gcMs() {
        return endGc - startGc;
    }

    private static long jit() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    private static long gc() {
        long ms = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, g.getCollectionTime());
        }
        return ms;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public long expectedTasks() {
        return inner.expectedTasks();
    }

    @Override
    public void run(Orchestrator o) {
        if (threads != null) {
            threads.start();
        }
        startJit = jit();
        startGc = gc();
        startCpu = OS.getProcessCpuTime();
        inner.run(o);
    }

    @Override
    public void check() {
        endCpu = OS.getProcessCpuTime();
        endJit = jit();
        endGc = gc();
        if (threads != null) {
            threadNs = threads.stop();
        }
        inner.check();
    }

    @Override
    public Workload withKernel(String function, UnaryOperator<Kernel> wrap) {
        inner.withKernel(function, wrap);
        return this;
    }
}
