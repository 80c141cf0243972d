package dev.dfx.runtime.probe;

import java.lang.management.ManagementFactory;

/**
 * A {@link CounterSource} of the JVM: the calling thread's bytes allocated on the heap (a read of the thread's
 * allocation counters, about 10 ns) and, optionally, its CPU time in ns (through
 * {@code com.sun.management.ThreadMXBean}). A counter the JVM cannot measure reads as 0. One instance per core
 * thread (it holds no per-thread state, but reads are of the calling thread only).
 *
 * <p>Costs on Linux: thread CPU time is a {@code clock_gettime(CLOCK_THREAD_CPUTIME_ID)} system call that takes the
 * run-queue lock (0.5-0.7 µs per read on this 2-CPU VM, two reads per task); thread user time is left out entirely,
 * as the JVM reads it by parsing {@code /proc/self/task/<tid>/stat} (about 11 µs per read).
 */
public final class JvmThreadCounters implements CounterSource {
    private static final String CPU_NS = "thread-cpu-ns";
    private static final String ALLOC = "alloc-bytes";
    private final com.sun.management.ThreadMXBean mx;
    private final boolean cpuTime;
    private final String[] names;
    private final boolean cpu;
    private final boolean alloc;

    /** Thread CPU time and allocated bytes. */
    public JvmThreadCounters() {
        this(true);
    }

    /**
     * @param cpuTime whether to read thread CPU time (a system call per read) besides allocated bytes
     */
    public JvmThreadCounters(boolean cpuTime) {
        mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        this.cpuTime = cpuTime;
        this.names = cpuTime ? new String[] {CPU_NS, ALLOC} : new String[] {ALLOC};
        cpu = cpuTime && mx.isCurrentThreadCpuTimeSupported();
        if (cpu && !mx.isThreadCpuTimeEnabled()) {
            mx.setThreadCpuTimeEnabled(true);
        }
        alloc = mx.isThreadAllocatedMemorySupported();
        if (alloc && !mx.isThreadAllocatedMemoryEnabled()) {
            mx.setThreadAllocatedMemoryEnabled(true);
        }
    }

    @Override
    public int count() {
        return names.length;
    }

    @Override
    public String name(int i) {
        return names[i];
    }

    @Override
    public void read(long[] values) {
        int i = 0;
        if (cpuTime) {
            values[i++] = cpu ? Math.max(0, mx.getCurrentThreadCpuTime()) : 0;
        }
        values[i] = alloc ? Math.max(0, mx.getCurrentThreadAllocatedBytes()) : 0;
    }
}
