package dev.dfx.perf.symbol.demangle;

/**
 * Rust's legacy symbol mangling, printed as libiberty's {@code rust_demangle} prints it without
 * {@code DMGL_VERBOSE} (perf 6.1's {@code cplus_demangle(name, DMGL_NO_OPTS)} tries it before the Itanium grammar,
 * as legacy Rust names are also valid Itanium names): {@code _ZN}, length-prefixed identifiers, {@code E}, and an
 * optional {@code .suffix} that is ignored. Lengths are read into a 64-bit unsigned integer that wraps, as
 * libiberty reads them ({@code 18446744073709551619foo} is {@code foo}); a length with a leading zero, and so an
 * empty identifier, is not Rust's. The last identifier is the hash, {@code h} and 16 lower-case hex digits of which
 * at least 5 differ, and it is left out. The identifiers are joined by {@code ::}; in each, a leading {@code _}
 * before a {@code $} is dropped, {@code ..} is {@code ::}, and the escapes {@code $C$ $SP$ $BP$ $RF$ $LT$ $GT$ $LP$
 * $RP$} and {@code $uXX$} (printable ASCII) are decoded; an escape it does not know ends the decoding and the rest
 * of that identifier prints as it is. Stateless and thread-safe.
 */
final class RustLegacy {
    private static final int HASH = 19; // "17h" and 16 hex digits

    private RustLegacy() {
    }

    /**
     * @param sym a symbol name
     * @return the demangled name without its hash, or {@code null} when it is not a legacy Rust name
     */
    static String demangle(String sym) {
        if (!sym.startsWith("_ZN")) {
            return null;
        }
        String s = sym.substring(3);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(isAlnum(c) || c == '_' || c == '$' || c == '.' || c == ':' || c == '@')) {
                return null;
            }
        }
        // the name ends with E, or with E and a suffix that starts with '.'
        int n = s.length();
        boolean dotSuffix = true;
        while (n > 0 && !(dotSuffix && s.charAt(n - 1) == 'E')) {
            dotSuffix = s.charAt(n - 1) == '.';
            n--;
        }
        if (n == 0) {
            return null;
        }
        n--;
        if (!(n > HASH && s.startsWith("17h", n - HASH))) {
            return null;
        }
        int next = 0;
        int lastStart = -1;
        int lastLen = -1;
        do {
            if (next >= n || !isDigit(s.charAt(next)) || s.charAt(next) == '0') {
                return null; // no length, or one with a leading zero (an empty identifier among them)
            }
            int start = digitsEnd(s, next, n);
            int len = length(s, next, start, n);
            if (len < 0) {
                return null;
            }
            lastStart = start;
            lastLen = len;
            next = start + len;
        } while (next < n);
        if (!isHash(s, lastStart, lastLen)) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        int end = n - HASH;
        next = 0;
        do {
            if (next > 0) {
                out.append("::");
            }
            int start = digitsEnd(s, next, n);
            int len = length(s, next, start, n);
            printIdent(s, start, len, out);
            next = start + len;
        } while (next < end);
        return out.length() > Node.Out.MAX ? null : out.toString();
    }

    private static int digitsEnd(String s, int at, int n) {
        while (at < n && isDigit(s.charAt(at))) {
            at++;
        }
        return at;
    }

    /**
     * The length written in {@code s[from, to)}, accumulated as libiberty does, in a 64-bit unsigned integer that
     * wraps (so {@code 18446744073709551619} is 3).
     *
     * @return the length, or -1 when the identifier would run past {@code n}
     */
    private static int length(String s, int from, int to, int n) {
        long len = 0;
        for (int i = from; i < to; i++) {
            len = len * 10 + (s.charAt(i) - '0');
        }
        long stop = to + len;
        return Long.compareUnsigned(to, stop) > 0 || Long.compareUnsigned(stop, n) > 0 ? -1 : (int) len;
    }

    /** @return whether {@code s[start, start + len)} is {@code h} and 16 lower-case hex digits, 5 or more distinct */
    private static boolean isHash(String s, int start, int len) {
        if (len != 17 || s.charAt(start) != 'h') {
            return false;
        }
        int seen = 0;
        for (int i = 1; i < 17; i++) {
            int nibble = lowerHex(s.charAt(start + i));
            if (nibble < 0) {
                return false;
            }
            seen |= 1 << nibble;
        }
        return Integer.bitCount(seen) >= 5;
    }

    private static void printIdent(String s, int at, int len, StringBuilder out) {
        if (len >= 2 && s.charAt(at) == '_' && s.charAt(at + 1) == '$') {
            at++;
            len--; // the mangler's underscore that makes the identifier start with a letter
        }
        while (len > 0) {
            char c = s.charAt(at);
            int used;
            if (c == '$') {
                int[] escape = escape(s, at, len);
                if (escape == null) {
                    out.append(s, at, at + len); // an escape it does not know: the rest as it is
                    return;
                }
                out.append((char) escape[0]);
                used = escape[1];
            } else if (c == '.') {
                boolean pair = len >= 2 && s.charAt(at + 1) == '.';
                out.append(pair ? "::" : ".");
                used = pair ? 2 : 1;
            } else {
                used = 0;
                while (used < len && s.charAt(at + used) != '$' && s.charAt(at + used) != '.') {
                    used++;
                }
                out.append(s, at, at + used);
            }
            at += used;
            len -= used;
        }
    }

    /** @return {the character, the escape's length} for the escape at {@code at}, or null when it is not one */
    private static int[] escape(String s, int at, int len) {
        if (len < 3) {
            return null;
        }
        int e = at + 1;
        int left = len - 1;
        int escapeLen = 0;
        int c = 0;
        if (s.charAt(e) == 'C') {
            escapeLen = 1;
            c = ',';
        } else if (left > 2) {
            escapeLen = 2;
            String two = s.substring(e, e + 2);
            switch (two) {
                case "SP" -> c = '@';
                case "BP" -> c = '*';
                case "RF" -> c = '&';
                case "LT" -> c = '<';
                case "GT" -> c = '>';
                case "LP" -> c = '(';
                case "RP" -> c = ')';
                default -> {
                    if (s.charAt(e) == 'u' && left > 3) {
                        escapeLen = 3;
                        int hi = lowerHex(s.charAt(e + 1));
                        int lo = lowerHex(s.charAt(e + 2));
                        if (hi < 0 || lo < 0 || hi > 7) {
                            return null;
                        }
                        c = hi << 4 | lo;
                        if (c < 0x20) {
                            return null;
                        }
                    }
                }
            }
        }
        if (c == 0 || left <= escapeLen || s.charAt(e + escapeLen) != '$') {
            return null;
        }
        return new int[] {c, 2 + escapeLen};
    }

    private static int lowerHex(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isAlnum(char c) {
        return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }
}
