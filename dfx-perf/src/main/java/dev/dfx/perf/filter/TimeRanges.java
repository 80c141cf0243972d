package dev.dfx.perf.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * perf's {@code --time} ranges ({@code util/time-utils.c}, perf 6.1): {@code START,STOP} in seconds with up to nine
 * decimals (either side may be left out), several such ranges separated by spaces ({@code 1.5,1.6 2.0,2.1}), or
 * shares of the recording's span between its first and last sample: {@code 10%/2} (the second tenth),
 * {@code 0%-10%}, {@code 50%} (the first half), several of one kind separated by commas. A sample without a
 * timestamp (time 0) is never skipped. Immutable.
 */
public final class TimeRanges {
    private static final long NSEC_PER_SEC = 1_000_000_000L;
    /** What C's {@code strtod} reads of a decimal number (perf's percentages). */
    private static final Pattern DECIMAL = Pattern.compile("\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /** Each range's start and end, ns; 0 leaves that side open. */
    private final long[] start;
    private final long[] end;
    private final String text;

    private TimeRanges(String text, List<long[]> ranges) {
        this.text = text;
        start = new long[ranges.size()];
        end = new long[ranges.size()];
        for (int i = 0; i < ranges.size(); i++) {
            start[i] = ranges.get(i)[0];
            end[i] = ranges.get(i)[1];
        }
    }

    /** @return whether {@code text} contains a percent form, which needs the recording's first and last sample time */
    public static boolean relative(String text) {
        return text.indexOf('%') >= 0;
    }

    /**
     * @param text  the {@code --time} value
     * @param first the time of the first sample, ns (SAMPLE_TIME); only used by the percent forms
     * @param last  the time of the last sample, ns
     * @return the ranges
     * @throws IllegalArgumentException when perf would say "Invalid time string"
     */
    public static TimeRanges parse(String text, long first, long last) {
        List<long[]> r;
        try {
            r = relative(text) ? percentRanges(text, first, last) : absoluteRanges(text);
        } catch (BadRange e) {
            throw new IllegalArgumentException("'" + text + "' is not a time range: " + e.getMessage(), e);
        }
        if (r == null) {
            throw new IllegalArgumentException("'" + text + "' is not a time range; expected START,STOP in seconds"
                + " (either may be left out; several separated by spaces) or percent forms such as 10%/2, 0%-10%, 50%");
        }
        return new TimeRanges(text, r);
    }

    /**
     * {@code perf_time__parse_for_ranges_reltime}: the ranges moved by {@code ns}, both sides of every range, an
     * open side (0) included, as perf moves them; so under {@code --reltime} {@code 0.5,} ends at the first sample.
     *
     * @param ns what to add, ns (the recording's first sample time)
     * @return the moved ranges; this instance is unchanged
     */
    public TimeRanges shifted(long ns) {
        List<long[]> moved = new ArrayList<>(start.length);
        for (int i = 0; i < start.length; i++) {
            moved.add(new long[] {start[i] + ns, end[i] + ns});
        }
        return new TimeRanges(text, moved);
    }

    /** @return the ranges as given ({@code --time}'s value) */
    public String text() {
        return text;
    }

    /**
     * {@code perf_time__ranges_skip_sample}.
     *
     * @param time a sample's timestamp, ns
     * @return whether the sample lies outside every range
     */
    public boolean skip(long time) {
        if (time == 0 || start.length == 0) {
            return false;
        }
        if (start.length == 1) {
            return start[0] != 0 && Long.compareUnsigned(time, start[0]) < 0
                || end[0] != 0 && Long.compareUnsigned(time, end[0]) > 0;
        }
        for (int i = 0; i < start.length; i++) {
            if (Long.compareUnsigned(time, start[i]) >= 0 && (end[i] == 0 || Long.compareUnsigned(time, end[i]) <= 0)) {
                return false;
            }
        }
        return true;
    }

    /** {@code perf_time__parse_strs}: one range per comma; ranges are split at the white space after a STOP. */
    private static List<long[]> absoluteRanges(String text) {
        int commas = (int) text.chars().filter(c -> c == ',').count();
        if (commas == 0) {
            return null;
        }
        List<long[]> out = new ArrayList<>();
        int p = 0;
        for (int i = 0; i < commas - 1; i++) {
            int arg = p;
            p = text.indexOf(',', p) + 1;
            while (p < text.length() && CLong.isSpace(text.charAt(p))) {
                p++;
            }
            while (p < text.length() && !CLong.isSpace(text.charAt(p))) {
                if (text.charAt(p++) == ',') {
                    return null;
                }
            }
            long[] r = range(text.substring(arg, p));
            if (r == null) {
                return null;
            }
            out.add(r);
            if (p < text.length()) {
                p++;
            }
        }
        long[] r = range(text.substring(p));
        if (r == null) {
            return null;
        }
        out.add(r);
        for (int i = 0; i + 1 < out.size(); i++) {
            if (Long.compareUnsigned(out.get(i)[1], out.get(i + 1)[0]) >= 0) {
                return null; // ranges must not overlap
            }
        }
        return out;
    }

    /**
     * {@code perf_time__parse_str}: {@code START,STOP}, either side empty.
     *
     * @return the range, or null when a side is not a time
     * @throws BadRange when both are times and the start is after the stop (a negative start included)
     */
    private static long[] range(String s) {
        int comma = s.indexOf(',');
        String a = comma < 0 ? s : s.substring(0, comma);
        String b = comma < 0 ? "" : s.substring(comma + 1);
        long[] r = new long[2];
        if (!a.isEmpty()) {
            Long v = nsec(a);
            if (v == null) {
                return null;
            }
            r[0] = v;
        }
        if (!b.isEmpty()) {
            Long v = nsec(b);
            if (v == null) {
                return null;
            }
            r[1] = v;
        }
        if (r[1] != 0 && Long.compareUnsigned(r[1], r[0]) < 0) {
            // perf refuses it as any other bad string; naming why saves guessing at the syntax. perf reads a negative
            // time as 2^64 ns less it, which as a start lies after a stop of 0 s or later
            throw new BadRange(a.strip().startsWith("-") ? "the start " + a.strip() + " s is negative; expected"
                + " START,STOP of 0 s or later with START <= STOP" : "the start " + a + " s is after the stop " + b
                + " s; expected START,STOP with START <= STOP");
        }
        return r;
    }

    /** {@code parse_nsec_time}: seconds, then optionally a point and at most nine digits. */
    private static Long nsec(String s) {
        CLong sec = CLong.read(s, 0, 10);
        int e = sec.end();
        if (e < s.length() && s.charAt(e) != '.') {
            return null;
        }
        long ns = 0;
        if (e < s.length()) {
            String frac = s.substring(e + 1);
            if (frac.length() > 9) {
                return null;
            }
            String nine = (frac + "000000000").substring(0, 9);
            CLong n = CLong.read(nine, 0, 10);
            if (n.end() != nine.length()) {
                return null;
            }
            ns = n.value();
        }
        return sec.value() * NSEC_PER_SEC + ns;
    }

    /** {@code perf_time__percent_parse_str}. */
    private static List<long[]> percentRanges(String text, long first, long last) {
        int size = (int) text.chars().filter(c -> c == ',').count() + 1;
        if (text.indexOf('/') >= 0) {
            return commaSplit(text, size, s -> slash(s, first, last));
        }
        if (text.indexOf('-') >= 0) {
            return commaSplit(text, size, s -> dash(s, first, last));
        }
        int c = text.indexOf('%');
        if (c != text.length() - 1) {
            return null;
        }
        long[] r = slash(text + "/1", first, last);
        return r == null ? null : List.of(r);
    }

    private static List<long[]> commaSplit(String text, int size, java.util.function.Function<String, long[]> one) {
        List<long[]> out = new ArrayList<>();
        int p = 0;
        while (p < text.length()) {
            if (out.size() >= size) {
                return null;
            }
            int comma = text.indexOf(',', p);
            long[] r = one.apply(comma < 0 ? text.substring(p) : text.substring(p, comma));
            if (r == null) {
                return null;
            }
            out.add(r);
            if (comma < 0) {
                break;
            }
            p = comma + 1;
        }
        return out;
    }

    /** {@code percent_slash_split}: {@code P%/N}, the N-th slice of P percent. */
    private static long[] slash(String s, long first, long last) {
        int slash = s.indexOf('/');
        if (slash < 0) {
            return null;
        }
        Double pcnt = percent(s.substring(0, slash));
        CLong n = CLong.read(s, slash + 1, 10);
        if (pcnt == null || n.end() != s.length() || pcnt <= 0.0) {
            return null;
        }
        int i = (int) n.value();
        return percentRange(pcnt * (i - 1), pcnt * i, first, last);
    }

    /** {@code percent_dash_split}: {@code A%-B%}. */
    private static long[] dash(String s, long first, long last) {
        int dash = s.indexOf('-');
        if (dash < 0) {
            return null;
        }
        Double a = percent(s.substring(0, dash));
        Double b = percent(s.substring(dash + 1));
        return a == null || b == null ? null : percentRange(a, b, first, last);
    }

    /** {@code parse_percent}: a decimal number before a {@code %}; what follows the {@code %} is not read. */
    private static Double percent(String s) {
        int c = s.indexOf('%');
        if (c < 0 || !DECIMAL.matcher(s.substring(0, c)).matches()) {
            return null;
        }
        return Double.parseDouble(s.substring(0, c).strip()) / 100.0;
    }

    /** {@code set_percent_time}. */
    private static long[] percentRange(double from, double to, long first, long last) {
        if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0) {
            return null;
        }
        double total = (double) (last - first);
        long s = (long) (first + (double) Math.round(from * total));
        long e = (long) (first + (double) Math.round(to * total));
        if (e > s && e != last) {
            e -= 1;
        }
        return new long[] {s, e};
    }

    /** A range perf refuses as any bad string ("Invalid time string"), for a reason worth naming. */
    private static final class BadRange extends IllegalArgumentException {
        BadRange(String message) {
            super(message);
        }
    }
}
