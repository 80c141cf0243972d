package dev.dfx.pmu.stat;

import dev.dfx.pmu.CounterReading;
import java.util.List;
import java.util.Locale;

/**
 * perf stat's output layout (perf 6.1, {@code tools/perf/util/stat-display.c} and {@code builtin-stat.c}), as
 * observed with perf 6.1.187 on this kind of machine:
 * <pre>
 * std:  %18.2f|%18.0f ' ' %-4s(unit) ' ' %-32s(name) [' # ' metric ' ' %-(35-n-1)s(metric unit) | 35 spaces] ['  (%.2f%%)' when running != enabled]
 *       not counted: %18s('&lt;not counted&gt;'|'&lt;not supported&gt;') ' ' %-4s ' ' %-25s(name) 35 spaces [running]
 * CSV:  value SEP unit SEP name SEP run_ns SEP pct(%.2f, integer 100*run/ena) SEP metric_value SEP metric_unit
 * -I:   prefix '%6d.%09d' + SEP (a space in std mode) before every line
 * </pre>
 * The value is printed with two decimals when the event's scale is fractional (clocks in msec), else none. The
 * std header is {@code \n Performance counter stats for 'CMD':\n\n} ({@code 'system wide'} with -a); the footer
 * the elapsed, user and sys seconds as {@code " %17.9f seconds ..."}. CSV and interval output have neither.
 * Stateless apart from its separator; thread-safe.
 */
public final class StatFormatter {
    /** Width of the metric column ({@code METRIC_LEN} in perf 6.1's stat-display.c). */
    public static final int METRIC_LEN = 35;
    private static final String NOT_COUNTED = "<not counted>";
    private static final String NOT_SUPPORTED = "<not supported>";

    private final String sep;

    /** @param csvSeparator the {@code -x} separator, or null for the standard layout */
    public StatFormatter(String csvSeparator) {
        this.sep = csvSeparator;
    }

    /** @return whether this is CSV output */
    public boolean csv() {
        return sep != null;
    }

    /**
     * @param command    the command's words
     * @param systemWide whether counting is system-wide ({@code -a})
     * @return the std header, or "" for CSV
     */
    public String header(List<String> command, boolean systemWide) {
        if (csv()) {
            return "";
        }
        String what = systemWide ? "system wide" : String.join(" ", command);
        return "\n Performance counter stats for '" + what + "':\n\n";
    }

    /** @return the interval header line (std only; perf repeats it every 25 intervals), or "" for CSV */
    public String intervalHeader() {
        return csv() ? "" : "#           time             counts unit events\n";
    }

    /**
     * @param timeNs time since the start, ns
     * @return the {@code -I} prefix: {@code %6d.%09d} and the separator (a space in std mode)
     */
    public String intervalPrefix(long timeNs) {
        return String.format(Locale.ROOT, "%6d.%09d", timeNs / 1_000_000_000L, timeNs % 1_000_000_000L) + (csv() ? sep : " ");
    }

    /**
     * @param row    the line's event and reading
     * @param metric its derived metric ({@link Metric#NONE} for none)
     * @param prefix the interval prefix, or ""
     * @return the line with its newline
     */
    public String line(StatRow row, Metric metric, String prefix) {
        StringBuilder sb = new StringBuilder(prefix);
        String unit = row.event().unit();
        String name = row.event().name();
        CounterReading reading = row.reading();
        if (!row.counted()) {
            String word = row.supported() ? NOT_COUNTED : NOT_SUPPORTED;
            if (csv()) {
                sb.append(word).append(sep).append(unit).append(sep).append(name);
                running(sb, reading);
                sb.append(sep).append(sep);
            } else {
                sb.append(String.format(Locale.ROOT, "%18s", word)).append(' ')
                        .append(String.format(Locale.ROOT, "%-4s", unit)).append(' ')
                        .append(String.format(Locale.ROOT, "%-25s", name)).append(" ".repeat(METRIC_LEN));
                running(sb, reading);
            }
            return sb.append('\n').toString();
        }
        double scale = row.event().scale();
        boolean fractional = Math.floor(scale) != scale;
        if (csv()) {
            sb.append(String.format(Locale.ROOT, fractional ? "%.2f" : "%.0f", row.value())).append(sep)
                    .append(unit).append(sep).append(name);
            running(sb, reading);
            metricCsv(sb, metric);
        } else {
            sb.append(String.format(Locale.ROOT, fractional ? "%18.2f" : "%18.0f", row.value())).append(' ')
                    .append(String.format(Locale.ROOT, "%-4s", unit)).append(' ')
                    .append(String.format(Locale.ROOT, "%-32s", name));
            metricStd(sb, metric);
            running(sb, reading);
        }
        return sb.append('\n').toString();
    }

    /**
     * @param elapsedNs the wall-clock time of the run, ns
     * @param userNs    the children's user CPU time, ns, or -1 to leave the user/sys lines out (system-wide)
     * @param sysNs     the children's system CPU time, ns
     * @return the std footer, or "" for CSV
     */
    public String footer(long elapsedNs, long userNs, long sysNs) {
        if (csv()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\n");
        sb.append(String.format(Locale.ROOT, " %17.9f seconds time elapsed", elapsedNs / 1e9));
        if (userNs >= 0) {
            sb.append("\n\n");
            sb.append(String.format(Locale.ROOT, " %17.9f seconds user", userNs / 1e9)).append('\n');
            sb.append(String.format(Locale.ROOT, " %17.9f seconds sys", sysNs / 1e9)).append('\n');
        }
        return sb.append("\n\n").toString();
    }

    private void running(StringBuilder sb, CounterReading r) {
        if (csv()) {
            sb.append(sep).append(r.running()).append(sep)
                .append(String.format(Locale.ROOT, "%.2f", r.runningPercentCsv()));
        } else if (r.running() != r.enabled()) {
            sb.append(String.format(Locale.ROOT, "  (%.2f%%)", r.runningPercent()));
        }
    }

    private static void metricStd(StringBuilder sb, Metric m) {
        if (!m.present()) {
            sb.append(" ".repeat(METRIC_LEN));
            return;
        }
        String v = String.format(Locale.ROOT, m.format(), m.value());
        int n = 3 + v.length();
        sb.append(" # ").append(v).append(' ');
        int width = METRIC_LEN - n - 1;
        sb.append(width > 0 ? String.format(Locale.ROOT, "%-" + width + "s", m.unit()) : m.unit());
    }

    private void metricCsv(StringBuilder sb, Metric m) {
        if (!m.present()) {
            sb.append(sep).append(sep);
            return;
        }
        String v = String.format(Locale.ROOT, m.format(), m.value()).strip();
        int end = 0;
        while (end < v.length() && (Character.isDigit(v.charAt(end)) || v.charAt(end) == '.')) {
            end++;
        }
        sb.append(sep).append(v, 0, end).append(sep).append(m.unit().strip());
    }
}
