package dev.dfx.runtime.probe;

import dev.dfx.pmu.jvm.JvmEvent;
import dev.dfx.pmu.jvm.JvmPmu;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The default {@link CounterSource}: the calling thread's CPU time (ns) and bytes allocated on the heap, through
 * {@code com.sun.management.ThreadMXBean}: the events {@code jvm/cpu-time/} and {@code jvm/alloc-bytes/} of the jvm
 * PMU ({@link JvmEvent}), named as {@code dfx record -e} takes them and read the same way, without the event
 * machinery in the way. A counter the JVM cannot measure reads as 0. One instance per core thread (it holds no
 * per-thread state, but reads are of the calling thread only).
 *
 * <p>Thread user time is left out on purpose: on Linux the JVM reads it by parsing
 * {@code /proc/self/task/<tid>/stat}, about 11 µs per read against under 1 µs for CPU time, which made two reads
 * per task the largest cost of recording a small task.
 */
public final class JvmThreadCounters implements CounterSource {
    /** The counters' names: event specs of the jvm PMU, as pmu.csv heads its columns. */
    public static final List<String> NAMES = List.of(spec(JvmEvent.CPU_TIME), spec(JvmEvent.ALLOC_BYTES));
    private final com.sun.management.ThreadMXBean mx;
    private final boolean cpu;
    private final boolean alloc;

    /** Enables thread CPU time and allocation measurement where the JVM supports them. */
    public JvmThreadCounters() {
        mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        cpu = mx.isCurrentThreadCpuTimeSupported();
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
        return NAMES.size();
    }

    @Override
    public String name(int i) {
        return NAMES.get(i);
    }

    @Override
    public void read(long[] values) {
        values[0] = cpu ? Math.max(0, mx.getCurrentThreadCpuTime()) : 0;
        values[1] = alloc ? Math.max(0, mx.getCurrentThreadAllocatedBytes()) : 0;
    }
}
