package dev.dfx.perf.trace;

import java.util.Locale;

/**
 * One C printf conversion ({@code %[flags][width][.precision][length]conv}) formatted as glibc formats it,
 * for the integer conversions {@code d i u x X o}, {@code s} and {@code p}. Width or precision given as
 * {@code *} are taken from the {@code star} argument. Immutable and thread-safe.
 */
final class CFormat {
    final String spec;
    final boolean left;
    final boolean plus;
    final boolean space;
    final boolean alt;
    final boolean zero;
    final int width;
    final boolean starWidth;
    final int precision;
    final boolean starPrecision;
    final char conv;
    /** No flags, width or precision: the value is printed as is. */
    final boolean plain;

    private CFormat(String spec, boolean left, boolean plus, boolean space, boolean alt, boolean zero, int width,
                    boolean starWidth, int precision, boolean starPrecision, char conv) {
        this.spec = spec;
        this.left = left;
        this.plus = plus;
        this.space = space;
        this.alt = alt;
        this.zero = zero;
        this.width = width;
        this.starWidth = starWidth;
        this.precision = precision;
        this.starPrecision = starPrecision;
        this.conv = conv;
        this.plain = !left && !plus && !space && !alt && !zero && width < 0 && !starWidth && precision < 0
            && !starPrecision;
    }

    /** Parses a spec such as {@code "%-16s"}; length modifiers are skipped (the caller knows the value's size). */
    static CFormat parse(String spec) {
        int i = 1;
        boolean left = false;
        boolean plus = false;
        boolean space = false;
        boolean alt = false;
        boolean zero = false;
        for (; i < spec.length(); i++) {
            char c = spec.charAt(i);
            if (c == '-') {
                left = true;
            } else if (c == '+') {
                plus = true;
            } else if (c == ' ') {
                space = true;
            } else if (c == '#') {
                alt = true;
            } else if (c == '0') {
                zero = true;
            } else {
                break;
            }
        }
        int width = -1;
        boolean starWidth = false;
        if (i < spec.length() && spec.charAt(i) == '*') {
            starWidth = true;
            i++;
        } else {
            int start = i;
            while (i < spec.length() && Character.isDigit(spec.charAt(i))) {
                i++;
            }
            if (i > start) {
                width = Integer.parseInt(spec.substring(start, i));
            }
        }
        int precision = -1;
        boolean starPrecision = false;
        if (i < spec.length() && spec.charAt(i) == '.') {
            i++;
            if (i < spec.length() && spec.charAt(i) == '*') {
                starPrecision = true;
                i++;
            } else {
                int start = i;
                while (i < spec.length() && Character.isDigit(spec.charAt(i))) {
                    i++;
                }
                precision = i > start ? Integer.parseInt(spec.substring(start, i)) : 0;
            }
        }
        while (i < spec.length() && "hlLqjzZt".indexOf(spec.charAt(i)) >= 0) {
            i++;
        }
        char conv = i < spec.length() ? spec.charAt(i) : 0;
        return new CFormat(spec, left, plus, space, alt, zero, width, starWidth, precision, starPrecision, conv);
    }

    /**
     * Appends an integer already cast to its C type.
     *
     * @param v     the value, sign- or zero-extended from {@code bits}
     * @param bits  8, 16, 32 or 64: the C type's width
     * @param star  the {@code *} argument (width, or precision when only precision is starred); ignored otherwise
     */
    void formatInt(long v, int bits, int star, StringBuilder out) {
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        if (plain) {
            switch (conv) {
                case 'd', 'i' -> out.append(bits == 64 ? v : (v << (64 - bits)) >> (64 - bits));
                case 'u' -> {
                    long u = v & mask;
                    if (u >= 0) {
                        out.append(u);
                    } else {
                        out.append(Long.toUnsignedString(u));
                    }
                }
                case 'x' -> out.append(Long.toHexString(v & mask));
                default -> formatPadded(v, bits, star, out);
            }
            return;
        }
        formatPadded(v, bits, star, out);
    }

    /** @return the formatted integer (see {@link #formatInt(long, int, int, StringBuilder)}) */
    String formatInt(long v, int bits, int star) {
        StringBuilder out = new StringBuilder();
        formatInt(v, bits, star, out);
        return out.toString();
    }

    /** The conversion with its flags, width and precision, appended piece by piece (no string per piece). */
    private void formatPadded(long v, int bits, int star, StringBuilder out) {
        int w = starWidth ? star : width;
        int p = starPrecision ? star : precision;
        boolean leftAdj = left || w < 0 && starWidth;
        if (w < 0) {
            w = starWidth ? -w : 0;
        }
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        long number = 0;
        String digits = null; // null: the decimal digits of number, a non-negative long, appended as a number
        char sign = 0;
        String prefix = "";
        switch (conv) {
            case 'd', 'i' -> {
                long sv = bits == 64 ? v : (v << (64 - bits)) >> (64 - bits);
                if (sv < 0) {
                    sign = '-';
                    if (sv == Long.MIN_VALUE) {
                        digits = "9223372036854775808";
                    } else {
                        number = -sv;
                    }
                } else {
                    sign = plus ? '+' : space ? ' ' : 0;
                    number = sv;
                }
            }
            case 'u' -> {
                if ((v & mask) >= 0) {
                    number = v & mask;
                } else {
                    digits = Long.toUnsignedString(v & mask);
                }
            }
            case 'x' -> {
                digits = Long.toHexString(v & mask);
                prefix = alt && (v & mask) != 0 ? "0x" : "";
            }
            case 'X' -> {
                digits = Long.toHexString(v & mask).toUpperCase(Locale.ROOT);
                prefix = alt && (v & mask) != 0 ? "0X" : "";
            }
            case 'o' -> {
                digits = Long.toOctalString(v & mask);
                if (alt && !digits.startsWith("0")) {
                    digits = "0" + digits;
                }
            }
            default -> digits = Long.toString(v);
        }
        int nd = digits != null ? digits.length() : decimalDigits(number);
        if (p == 0 && (digits != null ? digits.equals("0") : number == 0)) {
            digits = "";
            nd = 0;
        }
        int precisionZeros = Math.max(0, p - nd);
        int pad = Math.max(0, w - ((sign != 0 ? 1 : 0) + prefix.length() + precisionZeros + nd));
        boolean zeroPad = !leftAdj && zero && p < 0;
        if (!leftAdj && !zeroPad) {
            repeat(' ', pad, out);
        }
        if (sign != 0) {
            out.append(sign);
        }
        out.append(prefix);
        if (zeroPad) {
            repeat('0', pad, out);
        }
        repeat('0', precisionZeros, out);
        if (digits != null) {
            out.append(digits);
        } else {
            out.append(number);
        }
        if (leftAdj) {
            repeat(' ', pad, out);
        }
    }

    /** @return the number of decimal digits of non-negative {@code v} */
    private static int decimalDigits(long v) {
        int n = 1;
        for (long limit = 10; n < 19 && v >= limit; limit *= 10) {
            n++;
        }
        return n;
    }

    private static void repeat(char c, int n, StringBuilder out) {
        for (int i = 0; i < n; i++) {
            out.append(c);
        }
    }

    /** Appends a string with this spec's width and precision. */
    void formatString(String s, int star, StringBuilder out) {
        if (plain) {
            out.append(s);
        } else {
            out.append(formatString(s, star));
        }
    }

    /** Formats a string with this spec's width and precision ({@code star} fills a {@code *}). */
    String formatString(String s, int star) {
        int w = starWidth ? star : width;
        int p = starPrecision ? star : precision;
        boolean leftAdj = left;
        if (starWidth && w < 0) {
            leftAdj = true;
            w = -w;
        }
        if (p >= 0 && s.length() > p) {
            s = s.substring(0, p);
        }
        if (w <= s.length()) {
            return s;
        }
        String pad = " ".repeat(w - s.length());
        return leftAdj ? s + pad : pad + s;
    }

    /** glibc {@code %p} without a width: {@code (nil)} for 0, else {@code 0x} and lowercase hex. */
    static String pointer(long v) {
        return v == 0 ? "(nil)" : "0x" + Long.toHexString(v);
    }
}
