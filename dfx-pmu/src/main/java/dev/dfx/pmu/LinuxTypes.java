package dev.dfx.pmu;

/**
 * The fixed {@code perf_event_attr.type} values of uapi {@code linux/perf_event.h} ({@code enum perf_type_id}).
 * Dynamic PMUs (msr, uprobe, ...) get their number from {@code /sys/bus/event_source/devices/<pmu>/type}.
 */
public final class LinuxTypes {
    /** PERF_TYPE_HARDWARE. */
    public static final int HARDWARE = 0;
    /** PERF_TYPE_SOFTWARE. */
    public static final int SOFTWARE = 1;
    /** PERF_TYPE_TRACEPOINT. */
    public static final int TRACEPOINT = 2;
    /** PERF_TYPE_HW_CACHE. */
    public static final int HW_CACHE = 3;
    /** PERF_TYPE_RAW. */
    public static final int RAW = 4;
    /** PERF_TYPE_BREAKPOINT. */
    public static final int BREAKPOINT = 5;
    /** First type dfx gives its own (simulated, JVM) PMUs; far above what the kernel hands out. */
    public static final int DFX_FIRST = 0x10000;

    private LinuxTypes() {
    }
}
