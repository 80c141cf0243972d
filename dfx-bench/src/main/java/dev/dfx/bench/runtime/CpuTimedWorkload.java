package dev.dfx.bench.runtime;

import dev.dfx.runtime.Kernel;
import dev.dfx.runtime.Orchestrator;
import dev.dfx.runtime.workload.Workload;
import java.lang.management.ManagementFactory;
import java.util.function.UnaryOperator;

/**
 * A workload that notes the process CPU time (all threads, ns) when its program starts (on the orchestrator, once
 * the runtime threads and the recording's pipelines run) and when its check begins (after every task retired and
 * the runtime threads ended, before the pipelines stop): the CPU the run cost, recording included, exports not.
 * Not thread-safe beyond the runtime's own order (program, then check).
 */
final class CpuTimedWorkload implements Workload {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final Workload inner;
    private volatile long startCpu;
    private volatile long endCpu;

    CpuTimedWorkload(Workload inner) {
        this.inner = inner;
    }

    /** @return process CPU ns from program start to the check */
    long cpuNs() {
        return endCpu - startCpu;
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
        startCpu = OS.getProcessCpuTime();
        inner.run(o);
    }

    @Override
    public void check() {
        endCpu = OS.getProcessCpuTime();
        inner.check();
    }

    @Override
    public Workload withKernel(String function, UnaryOperator<Kernel> wrap) {
        inner.withKernel(function, wrap);
        return this;
    }
}
