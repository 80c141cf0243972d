package dev.dfx.pmu.attr;

/**
 * {@code perf_event_attr.type} values: the fixed ones of uapi {@code linux/perf_event.h} ({@code enum perf_type_id}),
 * perf's own for events its decoders synthesize, and the first one dfx gives its own PMUs. Dynamic PMUs (msr,
 * uprobe, ...) get their number from {@code /sys/bus/event_source/devices/<pmu>/type}. Stateless.
 */
public final class PerfType {
    /** PERF_TYPE_HARDWARE. */
    public static final int HARDWARE = 0;
    /** PERF_TYPE_SOFTWARE. */
    public static final int SOFTWARE = 1;
    /** PERF_TYPE_TRACEPOINT: {@code config} is the tracepoint id. */
    public static final int TRACEPOINT = 2;
    /** PERF_TYPE_HW_CACHE. */
    public static final int HW_CACHE = 3;
    /** PERF_TYPE_RAW. */
    public static final int RAW = 4;
    /** PERF_TYPE_BREAKPOINT. */
    public static final int BREAKPOINT = 5;
    /** {@code PERF_TYPE_MAX}: types at or above it (and below {@link #SYNTH}) are dynamic PMUs. */
    public static final int MAX = 6;
    /** {@code PERF_TYPE_SYNTH} (INT_MAX + 1, tools/perf): events synthesized by perf's AUX decoders. */
    public static final int SYNTH = 0x8000_0000;
    /** First type dfx gives its own (simulated, JVM) PMUs; far above what the kernel hands out. */
    public static final int DFX_FIRST = 0x10000;

    private PerfType() {
    }
}
