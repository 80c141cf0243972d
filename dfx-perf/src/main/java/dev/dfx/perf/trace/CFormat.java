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
                default -> out.append(formatInt(v, bits, star));
            }
            return;
        }
        out.append(formatInt(v, bits, star));
    }

    /** @return the formatted integer (see {@link #formatInt(long, int, int, StringBuilder)}) */
    String formatInt(long v, int bits, int star) {
        int w = starWidth ? star : width;
        int p = starPrecision ? star : precision;
        boolean leftAdj = left || w < 0 && starWidth;
        if (w < 0) {
            w = starWidth ? -w : 0;
        }
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        String digits;
        String sign = "";
        String prefix = "";
        switch (conv) {
            case 'd', 'i' -> {
                long sv = bits == 64 ? v : (v << (64 - bits)) >> (64 - bits);
                if (sv < 0) {
                    sign = "-";
                    digits = sv == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(-sv);
                } else {
                    sign = plus ? "+" : space ? " " : "";
                    digits = Long.toString(sv);
                }
            }
            case 'u' -> digits = Long.toUnsignedString(v & mask);
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
        if (p >= 0) {
            if (p == 0 && digits.equals("0")) {
                digits = "";
            }
            if (digits.length() < p) {
                digits = "0".repeat(p - digits.length()) + digits;
            }
        }
        int len = sign.length() + prefix.length() + digits.length();
        if (len >= w) {
            return sign + prefix + digits;
        }
        if (leftAdj) {
            return sign + prefix + digits + " ".repeat(w - len);
        }
        if (zero && p < 0) {
            return sign + prefix + "0".repeat(w - len) + digits;
        }
        return " ".repeat(w - len) + sign + prefix + digits;
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
