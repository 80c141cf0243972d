package dev.dfx.runtime.workload;

import dev.dfx.runtime.Function;
import dev.dfx.runtime.Kernel;
import dev.dfx.runtime.Orchestrator;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/** What every workload shares: kernel replacement, seeded data and the element comparison of checks. */
abstract class AbstractWorkload implements Workload {
    private final Map<String, UnaryOperator<Kernel>> wrappers = new HashMap<>();

    @Override
    public Workload withKernel(String function, UnaryOperator<Kernel> wrap) {
        wrappers.put(function, wrap);
        return this;
    }

    /** Registers {@code kernel} under {@code name}, wrapped if {@link #withKernel} asked for it. */
    protected Function function(Orchestrator orch, String name, Kernel kernel) {
        return orch.function(name, wrappers.getOrDefault(name, UnaryOperator.identity()).apply(kernel));
    }

    /** @return {@code n} floats uniform in [-1, 1) from {@code seed} */
    protected static float[] random(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) (r.nextDouble() * 2 - 1);
        }
        return a;
    }

    /** @return whether {@code got} is within {@code tolerance} (absolute) of {@code expected}; NaN never is */
    protected static boolean close(double got, double expected, double tolerance) {
        return Math.abs(got - expected) <= tolerance;
    }

    /**
     * @param what names the element, e.g. {@code "C[3,17]"}
     * @return the failure to throw for an element that is not {@link #close}
     */
    protected WorkloadCheckException mismatch(String what, double got, double expected, double tolerance) {
        return new WorkloadCheckException(String.format("%s: %s = %s, expected %s (tolerance %s)", name(), what, got,
                expected, tolerance));
    }
}
