package dev.dfx.runtime.probe;

import dev.dfx.pmu.jvm.JvmEvent;
import dev.dfx.pmu.jvm.JvmPmu;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * A {@link CounterSource} of the JVM: the calling thread's bytes allocated on the heap (a read of the thread's
 * allocation counter, about 10 ns) and, optionally, its CPU time in ns, through
 * {@code com.sun.management.ThreadMXBean}: the events {@code jvm/alloc-bytes/} and {@code jvm/cpu-time/} of the jvm
 * PMU ({@link JvmEvent}), named as {@code dfx record -e} takes them and read the same way, without the event
 * machinery in the way. A counter the JVM cannot measure reads as 0. One instance per core thread (it holds no
 * per-thread state, but reads are of the calling thread only).
 *
 * <p>Costs on Linux: allocated bytes is a load of a JVM thread-local field, no system call, and is the pmu
 * subsystem's default. Thread CPU time is a {@code clock_gettime(CLOCK_THREAD_CPUTIME_ID)} system call (about
 * 1.6-1.7 µs per read on the loaded 2-CPU VM, 0.5-0.7 µs when it is quiet; two reads per task, more than a small
 * task's own work), so, as production tracers do (JFR reads no per-event thread CPU time), it is read only on
 * request: {@code dfx record -e jvm/cpu-time/,jvm/alloc-bytes/}. Thread user time is left out entirely, as the JVM
 * reads it by parsing {@code /proc/self/task/<tid>/stat} (about 11 µs per read).
 */
public final class JvmThreadCounters implements CounterSource {
    /** The counters' names with CPU time: event specs of the jvm PMU, as pmu.csv heads its columns. */
    public static final List<String> NAMES = List.of(spec(JvmEvent.CPU_TIME), spec(JvmEvent.ALLOC_BYTES));
    /** The counter's name without CPU time. */
    public static final List<String> ALLOC_ONLY = List.of(spec(JvmEvent.ALLOC_BYTES));
    private final com.sun.management.ThreadMXBean mx;
    private final boolean cpuTime;
    private final List<String> names;
    private final boolean cpu;
    private final boolean alloc;

    /** Thread CPU time and allocated bytes ({@link #NAMES}): two counters, the first a system call per read. */
    public JvmThreadCounters() {
        this(true);
    }

    /**
     * Enables the measurements where the JVM supports them.
     *
     * @param cpuTime whether to read thread CPU time (a system call per read) before allocated bytes
     */
    public JvmThreadCounters(boolean cpuTime) {
        mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        this.cpuTime = cpuTime;
        this.names = cpuTime ? NAMES : ALLOC_ONLY;
        cpu = cpuTime && mx.isCurrentThreadCpuTimeSupported();
        if (cpu && !mx.isThreadCpuTimeEnabled()) {
            mx.setThreadCpuTimeEnabled(true);
        }
        alloc = mx.isThreadAllocatedMemorySupported();
        if (alloc && !mx.isThreadAllocatedMemoryEnabled()) {
            mx.setThreadAllocatedMemoryEnabled(true);
        }
    }

    private static String spec(JvmEvent e) {
        return JvmPmu.NAME + "/" + e.term() + "/";
    }

    @Override
    public int count() {
        return names.size();
    }

    @Override
    public String name(int i) {
        return names.get(i);
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
