package dev.dfx.perf.report;

import dev.dfx.perf.text.Numbers;

/** printf conversions of perf's report columns, written out for Java. Stateless. */
final class Columns {
    private Columns() {
    }

    /** {@code %-*.*s}: {@code s} cut to {@code width} characters, padded with spaces on the right to it. */
    static String left(String s, int width) {
        String cut = cut(s, width);
        return cut + " ".repeat(Math.max(0, width - cut.length()));
    }

    /** {@code %-.*s}: {@code s} cut to {@code width} characters, not padded. */
    static String cut(String s, int width) {
        return s.length() > width ? s.substring(0, Math.max(0, width)) : s;
    }

    /** {@code %-*s} after a text: padded with spaces on the right to {@code width}, never cut. */
    static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }

    /** {@code %*s}: padded with spaces on the left to {@code width}. */
    static String right(String s, int width) {
        return " ".repeat(Math.max(0, width - s.length())) + s;
    }

    /** {@code %*.*d}: at least {@code width} digits (zero padded), then padded to {@code width}. */
    static String rightInt(long v, int width) {
        String digits = Long.toString(Math.abs(v));
        if (digits.length() < width) {
            digits = "0".repeat(width - digits.length()) + digits;
        }
        return right(v < 0 ? "-" + digits : digits, width);
    }

    /**
     * {@code %*.2f}: {@code v} rounded as glibc rounds (the binary value, ties to even) to two decimals, padded to
     * {@code width}.
     */
    static String fixed2(double v, int width) {
        return right(Numbers.fixed(v, 2), width);
    }

    /** @return {@code 100.0 * part / total} as perf computes a percentage (0 when the total is 0) */
    static double percent(long part, long total) {
        return total == 0 ? 0.0 : 100.0 * part / total;
    }
}
