package dev.dfx.pmu.stat;

/**
 * A derived value printed after {@code #} on a {@code dfx stat} line (perf's "shadow" metric), e.g.
 * {@code 0.010 CPUs utilized} or {@code 1.019 K/sec}. Immutable.
 *
 * @param format the C-style format of the value (e.g. {@code %8.3f}), or null when the line has no metric
 * @param unit   the text after the value
 * @param value  the value
 */
public record Metric(String format, String unit, double value) {

    /** No metric. */
    public static final Metric NONE = new Metric(null, null, 0);

    /** @return whether there is a metric to print */
    public boolean present() {
        return format != null && unit != null;
    }
}
