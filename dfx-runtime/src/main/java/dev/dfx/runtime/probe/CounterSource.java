package dev.dfx.runtime.probe;

/**
 * Per-thread counters read on a core thread just before and just after each kernel; the pmu subsystem
 * stores the deltas. Values must be monotonic per thread. Each core thread reads only its own source.
 */
public interface CounterSource {
    /** @return number of counters, 0..8 */
    int count();

    /** @return name of counter {@code i}, e.g. {@code jvm/cpu-time/} */
    String name(int i);

    /**
     * Reads the calling thread's current values into {@code values[0 .. count())}; allocates nothing.
     */
    void read(long[] values);

    /**
     * @return the JVM's thread CPU time and allocated bytes (CPU time is a system call per read, what
     *         {@code -e jvm/cpu-time/,jvm/alloc-bytes/} reads)
     */
    static CounterSource jvmThread() {
        return new JvmThreadCounters();
    }

    /** @return the JVM's allocated bytes of the thread only, no system call: the pmu subsystem's default */
    static CounterSource jvmAllocatedBytes() {
        return new JvmThreadCounters(false);
    }
}
