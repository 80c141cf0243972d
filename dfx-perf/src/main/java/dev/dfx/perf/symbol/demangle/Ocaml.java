package dev.dfx.perf.symbol.demangle;

/**
 * OCaml's native-code symbol names ({@code camlStdlib__array__map_154}), printed as perf 6.1's
 * {@code ocaml_demangle_sym} (tools/perf/util/demangle-ocaml.c) prints them: a name that starts with {@code caml} and
 * an upper-case letter (perf's {@code isupper}, whose table also counts the Latin-1 capitals {@code 0xc0-0xd6} and
 * {@code 0xd8-0xde}) loses {@code caml}, each {@code __} becomes {@code .} and each {@code $} with two hex digits
 * becomes that byte ({@code Stdlib.array.map_154}); a decoded zero byte ends the name, as it ends perf's C string.
 * Names are Java strings of one byte per character. Stateless and thread-safe.
 */
final class Ocaml {
    private static final String PREFIX = "caml";

    private Ocaml() {
    }

    /**
     * @param sym a symbol name
     * @return its demangled form, or {@code null} when it is not an OCaml name
     */
    static String demangle(String sym) {
        if (!sym.startsWith(PREFIX) || sym.length() <= PREFIX.length() || !isUpper(sym.charAt(PREFIX.length()))) {
            return null;
        }
        StringBuilder out = new StringBuilder(sym.length());
        int n = sym.length();
        int i = PREFIX.length();
        while (i < n) {
            char c = sym.charAt(i);
            if (c == '_' && i + 1 < n && sym.charAt(i + 1) == '_') {
                out.append('.');
                i += 2;
            } else if (c == '$' && i + 2 < n && hex(sym.charAt(i + 1)) >= 0 && hex(sym.charAt(i + 2)) >= 0) {
                char b = (char) (hex(sym.charAt(i + 1)) << 4 | hex(sym.charAt(i + 2)));
                if (b == 0) {
                    break;
                }
                out.append(b);
                i += 3;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** perf's {@code isupper}: the kernel's ctype table, Latin-1 capitals included. */
    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z' || c >= 0xc0 && c <= 0xde && c != 0xd7;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}
