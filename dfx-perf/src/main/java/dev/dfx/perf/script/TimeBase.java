package dev.dfx.perf.script;

/**
 * What the time column of {@code dfx script} counts from, as {@code perf script} ({@code perf_sample__fprintf_start},
 * perf 6.1): the recording's clock ({@link #ABSOLUTE}, the default), the first printed record ({@link #RELATIVE},
 * {@code --reltime}) or the previous printed record ({@link #DELTA}, {@code --deltatime}).
 */
public enum TimeBase {
    /** The record's own timestamp. */
    ABSOLUTE,
    /**
     * {@code --reltime}: the timestamp less that of the first printed record with a non-zero one (records printed
     * before it show their own); {@code --time} ranges count from the recording's first sample.
     */
    RELATIVE,
    /** {@code --deltatime}: the timestamp less that of the previous printed record; the first shows 0. */
    DELTA;

    /**
     * The time column's value for one printed record after another; one instance per listing, not thread-safe.
     * Differences are taken modulo 2^64 and printed unsigned, as perf's {@code u64} arithmetic does for a record
     * earlier than the one it is counted from.
     */
    public static final class Column {
        private final TimeBase base;
        private long initial;
        private long previous;

        /** @param base what the column counts from */
        public Column(TimeBase base) {
            this.base = base;
        }

        /**
         * @param time the printed record's timestamp, ns
         * @return the value to print, ns
         */
        public long shown(long time) {
            switch (base) {
                case RELATIVE -> {
                    if (initial == 0) {
                        initial = time;
                    }
                    return time - initial;
                }
                case DELTA -> {
                    long t = previous != 0 ? time - previous : 0;
                    previous = time;
                    return t;
                }
                default -> {
                    return time;
                }
            }
        }
    }
}
