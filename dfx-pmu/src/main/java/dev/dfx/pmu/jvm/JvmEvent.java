package dev.dfx.pmu.jvm;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The events of the {@code jvm} PMU, each read two ways: for the whole JVM (what {@code dfx stat} counts) and
 * for the calling thread (what per-task counters read). Sources: {@code com.sun.management.ThreadMXBean}
 * (thread CPU time, allocated bytes), {@code com.sun.management.OperatingSystemMXBean} (process CPU time),
 * {@code GarbageCollectorMXBean} (collections and their time; JVM-wide in both views). Raw values are
 * monotonic: ns for times, bytes, counts.
 */
public enum JvmEvent {
    /** CPU time, ns (printed in msec like task-clock). */
    CPU_TIME(1, "cpu-time", "msec", 1e-6, "CPU time: the JVM's (process) or the thread's"),
    /** Heap bytes allocated. */
    ALLOC_BYTES(2, "alloc-bytes", "Bytes", 1.0, "heap bytes allocated: by all threads or by the thread"),
    /** Garbage collections completed (JVM-wide). */
    GC_COUNT(3, "gc-count", "", 1.0, "garbage collections completed, JVM-wide"),
    /** Time spent in garbage collections, ns (JVM-wide; the MXBean reports ms). */
    GC_TIME(4, "gc-time", "msec", 1e-6, "time in garbage collection, JVM-wide (ms resolution)");

    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final int config;
    private final String term;
    private final String unit;
    private final double scale;
    private final String description;

    JvmEvent(int config, String term, String unit, double scale, String description) {
        this.config = config;
        this.term = term;
        this.unit = unit;
        this.scale = scale;
        this.description = description;
    }

    /** @return the {@code config} (the {@code event} format field) */
    public int config() {
        return config;
    }

    /** @return the event name, e.g. {@code cpu-time} */
    public String term() {
        return term;
    }

    /** @return the printed unit */
    public String unit() {
        return unit;
    }

    /** @return raw-to-printed factor */
    public double scale() {
        return scale;
    }

    /** @return one line for {@code dfx list} */
    public String description() {
        return description;
    }

    /** @return the event with that config, or null */
    public static JvmEvent ofConfig(long config) {
        for (JvmEvent e : values()) {
            if (e.config == config) {
                return e;
            }
        }
        return null;
    }

    /** @return the JVM-wide raw value now */
    public long processValue() {
        return switch (this) {
            case CPU_TIME -> Math.max(0, OS.getProcessCpuTime());
            case ALLOC_BYTES -> Math.max(0, THREADS.getTotalThreadAllocatedBytes());
            case GC_COUNT -> gc(false);
            case GC_TIME -> gc(true) * 1_000_000L;
        };
    }

    /** @return the calling thread's raw value now (the JVM-wide one for the GC events) */
    public long threadValue() {
        return switch (this) {
            case CPU_TIME -> Math.max(0, THREADS.getCurrentThreadCpuTime());
            case ALLOC_BYTES -> Math.max(0, THREADS.getCurrentThreadAllocatedBytes());
            case GC_COUNT, GC_TIME -> processValue();
        };
    }

    private static long gc(boolean time) {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, time ? gc.getCollectionTime() : gc.getCollectionCount());
        }
        return sum;
    }
}
