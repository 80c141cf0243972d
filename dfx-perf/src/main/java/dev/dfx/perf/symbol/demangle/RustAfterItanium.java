package dev.dfx.perf.symbol.demangle;

/**
 * perf 6.1's own Rust pass ({@code rust_is_mangled} and {@code rust_demangle_sym} of tools/perf/util/demangle-rust.c)
 * over what the C++ demangler printed: where that ends in {@code ::h} and 16 lower-case hex digits of which 5 to 15
 * differ, and everything before it consists of {@code [A-Za-z0-9_:.]}, the escapes {@code $C$ $SP$ $BP$ $RF$ $LT$ $GT$
 * $LP$ $RP$ $u20$ $u27$ $u5b$ $u5d$ $u7e$} and no {@code ...}, the hash is cut, the escapes decoded, {@code ..}
 * becomes {@code ::}, a single {@code .} becomes {@code -}, and an {@code _} that starts a path component before
 * an escape is dropped. It matters for legacy Rust names libiberty's Rust demangler rejects but its Itanium
 * demangler reads, e.g. {@code _ZN3foo3bar17h0123456789abcdefEv} (a parameter list after the path). Stateless and
 * thread-safe.
 */
final class RustAfterItanium {
    private static final int HASH = 19; // "::h" and 16 hex digits
    private static final String[] ESCAPES = {"$C$", "$SP$", "$BP$", "$RF$", "$LT$", "$GT$", "$LP$", "$RP$", "$u20$",
        "$u27$", "$u5b$", "$u5d$", "$u7e$"};
    private static final char[] DECODED = {',', '@', '*', '&', '<', '>', '(', ')', ' ', '\'', '[', ']', '~'};

    private RustAfterItanium() {
    }

    /**
     * @param demangled what the C++ demangler printed
     * @return the Rust form, or {@code demangled} itself where perf leaves it
     */
    static String apply(String demangled) {
        int n = demangled.length();
        if (n <= HASH || !isHash(demangled, n - HASH) || !looksLikeRust(demangled, n - HASH)) {
            return demangled;
        }
        StringBuilder out = new StringBuilder(n);
        int end = n - HASH;
        int i = 0;
        while (i < end) {
            char c = demangled.charAt(i);
            if (c == '$') {
                int e = escapeAt(demangled, i);
                out.append(DECODED[e]);
                i += ESCAPES[e].length();
            } else if (c == '_') {
                // the mangler's underscore that makes a component start with a letter
                if (!((i == 0 || demangled.charAt(i - 1) == ':') && i + 1 < n && demangled.charAt(i + 1) == '$')) {
                    out.append(c);
                }
                i++;
            } else if (c == '.') {
                boolean pair = i + 1 < n && demangled.charAt(i + 1) == '.';
                out.append(pair ? "::" : "-");
                i += pair ? 2 : 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** @return whether {@code s} has {@code ::h} and 16 lower-case hex digits, 5 to 15 distinct, at {@code at} */
    private static boolean isHash(String s, int at) {
        if (!s.startsWith("::h", at)) {
            return false;
        }
        int seen = 0;
        for (int i = at + 3; i < at + HASH; i++) {
            char c = s.charAt(i);
            int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (v < 0) {
                return false;
            }
            seen |= 1 << v;
        }
        int distinct = Integer.bitCount(seen);
        return distinct >= 5 && distinct <= 15;
    }

    private static boolean looksLikeRust(String s, int end) {
        int i = 0;
        while (i < end) {
            char c = s.charAt(i);
            if (c == '$') {
                int e = escapeAt(s, i);
                if (e < 0) {
                    return false;
                }
                i += ESCAPES[e].length();
            } else if (c == '.' && s.startsWith("...", i)) {
                return false;
            } else if (c == '.' || c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                || c >= '0' && c <= '9') {
                i++;
            } else {
                return false;
            }
        }
        return true;
    }

    /** @return the index in {@link #ESCAPES} of the escape at {@code i} (it may run into the hash), or -1 */
    private static int escapeAt(String s, int i) {
        for (int e = 0; e < ESCAPES.length; e++) {
            if (s.startsWith(ESCAPES[e], i)) {
                return e;
            }
        }
        return -1;
    }
}
