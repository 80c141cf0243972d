package dev.dfx.pmu.attr;

/**
 * {@code perf_event_attr.read_format} bits ({@code enum perf_event_read_format}): what a read of the counter (or a
 * READ record, or a sample's READ field) returns besides the value. Stateless.
 */
public final class ReadFormat {
    public static final long TOTAL_TIME_ENABLED = 1L;
    public static final long TOTAL_TIME_RUNNING = 1L << 1;
    public static final long ID = 1L << 2;
    public static final long GROUP = 1L << 3;
    public static final long LOST = 1L << 4;

    private ReadFormat() {
    }
}
