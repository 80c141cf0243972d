package dev.dfx.runtime.workload;

import dev.dfx.runtime.Kernel;
import dev.dfx.runtime.Program;
import java.util.function.UnaryOperator;

/**
 * A workload: a {@link Program} plus its data and a numeric check. Create a fresh instance per run (the
 * data of one run is checked once). Not thread-safe: the program runs on the orchestrator thread, then
 * {@link #check()} on the caller after the run.
 */
public interface Workload extends Program {
    /** @return the {@code -w} name */
    String name();

    /** @return tasks the program submits */
    long expectedTasks();

    /**
     * Compares the results with an independent computation.
     *
     * @throws WorkloadCheckException naming the first wrong element, its value and the expected one
     */
    void check();

    /**
     * Replaces the kernel of function {@code function} with {@code wrap.apply(kernel)} when the program
     * registers it (fault injection in tests, extra instrumentation).
     *
     * @return this workload
     */
    Workload withKernel(String function, UnaryOperator<Kernel> wrap);
}
