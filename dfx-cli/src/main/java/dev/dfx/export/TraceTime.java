package dev.dfx.export;

/**
 * Exact nanosecond-to-microsecond text for trace-event timestamps. The Trace Event Format counts {@code ts} and
 * {@code dur} in microseconds; Perfetto's importer reads the decimal text and rounds {@code v * 1000} to ns, so
 * writing {@code ns / 1000} with exactly three decimals keeps every nanosecond with no binary floating-point step.
 *
 * <p>Stateless and thread-safe.
 */
public final class TraceTime {
    private TraceTime() {
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
