package dev.dfx.perf.trace;

/** C library number parsing ({@code strtoull}/{@code strtoll} with base 0) as libtraceevent uses it. Stateless. */
final class CNumbers {
    private CNumbers() {
    }

    /**
     * {@code strtoull(s, NULL, 0)}: optional sign, {@code 0x} hex, leading-0 octal or decimal; stops at the
     * first invalid character; 0 when nothing parses; saturates at {@code ULLONG_MAX} on overflow.
     */
    static long strtoull(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean neg = false;
        if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        int base = 10;
        if (i + 1 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
            && i + 2 < n && Character.digit(s.charAt(i + 2), 16) >= 0) {
            base = 16;
            i += 2;
        } else if (i < n && s.charAt(i) == '0') {
            base = 8;
        }
        long v = 0;
        boolean overflow = false;
        for (; i < n; i++) {
            int d = Character.digit(s.charAt(i), base);
            if (d < 0) {
                break;
            }
            long hi = Math.unsignedMultiplyHigh(v, base);
            long next = v * base + d;
            if (hi != 0 || Long.compareUnsigned(next, v * base) < 0) {
                overflow = true;
            }
            v = next;
        }
        if (overflow) {
            return -1L;
        }
        return neg ? -v : v;
    }

    /** {@code strtoll(s, NULL, 0)} for the values format files contain (overflow is not clamped). */
    static long strtoll(String s) {
        return strtoull(s);
    }
}
