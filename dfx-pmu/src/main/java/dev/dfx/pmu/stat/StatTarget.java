package dev.dfx.pmu.stat;

import java.util.List;

/**
 * What {@code dfx stat} counts Linux events on. Events of dfx's simulated PMUs ({@code accel}, {@code jvm}) always
 * count in the dfx process itself, whatever the target.
 */
public sealed interface StatTarget {

    /**
     * A process that has not exec'd its command yet: counters open on its pid with {@code enable_on_exec} and
     * {@code inherit}, so they start at the exec and follow its children (perf stat's workload mode).
     *
     * @param pid the stopped child's pid
     */
    record Task(long pid) implements StatTarget {
    }

    /**
     * Every task on each CPU ({@code -a}): one counter per CPU, enabled by {@link StatSession#enable()}.
     *
     * @param cpus the CPUs
     */
    record AllCpus(List<Integer> cpus) implements StatTarget {
        /** Copies the list. */
        public AllCpus {
            cpus = List.copyOf(cpus);
        }
    }

    /** The calling thread only, enabled by {@link StatSession#enable()} (used by tests and tools). */
    record CurrentThread() implements StatTarget {
    }
}
