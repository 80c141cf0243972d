package dev.dfx.perf.filter;

/**
 * The prefix of a C string that {@code strtol}/{@code strtoul} read: where it ends and the value. Stateless.
 *
 * @param value the number read (0 when no digits were read)
 * @param end   the index of the first character not read; the start when no digits were read (C's
 *              {@code endptr == nptr})
 */
record CLong(long value, int end) {
    /**
     * {@code strtol(s + from, &end, base)}: leading white space, a sign, then digits of {@code base}; base 0 reads
     * {@code 0x} as hexadecimal and a leading {@code 0} as octal. Overflow saturates at {@link Long#MAX_VALUE}.
     */
    static CLong read(String s, int from, int base) {
        int i = from;
        while (i < s.length() && isSpace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int b = base;
        if ((b == 0 || b == 16) && i + 1 < s.length() && s.charAt(i) == '0'
            && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X') && i + 2 < s.length()
            && Character.digit(s.charAt(i + 2), 16) >= 0) {
            i += 2;
            b = 16;
        } else if (b == 0) {
            b = i < s.length() && s.charAt(i) == '0' ? 8 : 10;
        }
        int digits = i;
        long v = 0;
        while (i < s.length() && Character.digit(s.charAt(i), b) >= 0 && s.charAt(i) < 128) {
            int d = Character.digit(s.charAt(i), b);
            v = v > (Long.MAX_VALUE - d) / b ? Long.MAX_VALUE : v * b + d;
            i++;
        }
        if (i == digits) {
            return new CLong(0, from);
        }
        return new CLong(negative ? -v : v, i);
    }

    /** C's {@code isspace} in the C locale. */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
    }
}
