package dev.dfx.export;

/**
 * Exact nanosecond-to-microsecond text for trace-event timestamps. The Trace Event Format counts {@code ts} and
 * {@code dur} in microseconds; Perfetto's importer reads the decimal text and rounds {@code v * 1000} to ns, so
 * writing {@code ns / 1000} with exactly three decimals keeps every nanosecond with no binary floating-point step.
 *
 * <p>Stateless and thread-safe.
 */
public final class TraceTime {
    /**
     * Characters {@link #micros(long, char[])} writes at most: the 16 digits of {@code Long.MAX_VALUE / 1000}, the
     * point and 3 decimals.
     */
    public static final int MAX_CHARS = 20;

    private TraceTime() {
    }

    /**
     * The same text as {@link #micros(long)}, written into {@code into} without allocating (a trace writes two per
     * event).
     *
     * @param ns   a non-negative duration or offset in nanoseconds
     * @param into at least {@link #MAX_CHARS} characters; receives the text from index 0
     * @return the text's length
     * @throws IllegalArgumentException when {@code ns} is negative
     */
    public static int micros(long ns, char[] into) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative trace time: " + ns + " ns");
        }
        long whole = ns / 1000;
        int frac = (int) (ns % 1000);
        int digits = 1;
        for (long w = whole; w >= 10; w /= 10) {
            digits++;
        }
        int at = digits;
        for (long w = whole; at > 0; w /= 10) {
            into[--at] = (char) ('0' + (int) (w % 10));
        }
        into[digits] = '.';
        into[digits + 1] = (char) ('0' + frac / 100);
        into[digits + 2] = (char) ('0' + frac / 10 % 10);
        into[digits + 3] = (char) ('0' + frac % 10);
        return digits + 4;
    }

    /**
     * @param ns a non-negative duration or offset in nanoseconds
     * @return the same value in microseconds as decimal text, e.g. {@code 1234567 -> "1234.567"}, {@code 5 -> "0.005"}
     * @throws IllegalArgumentException when {@code ns} is negative
     */
    public static String micros(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative trace time: " + ns + " ns");
        }
        long whole = ns / 1000;
        int frac = (int) (ns % 1000);
        StringBuilder sb = new StringBuilder(24).append(whole).append('.');
        if (frac < 100) {
            sb.append('0');
        }
        if (frac < 10) {
            sb.append('0');
        }
        return sb.append(frac).toString();
    }
}
