package dev.dfx.perf.data;

/**
 * {@code perf_event_attr.read_format} bits ({@code enum perf_event_read_format}) and their printed names.
 * Stateless.
 */
public final class ReadFormat {
    public static final long TOTAL_TIME_ENABLED = 1L;
    public static final long TOTAL_TIME_RUNNING = 1L << 1;
    public static final long ID = 1L << 2;
    public static final long GROUP = 1L << 3;
    public static final long LOST = 1L << 4;

    static final BitNames NAMES = new BitNames(
        new long[] {TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID, GROUP, LOST},
        new String[] {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST"});

    private ReadFormat() {
    }

    /** @return e.g. {@code "ID|LOST"} */
    public static String names(long readFormat) {
        return NAMES.format(readFormat);
    }
}
