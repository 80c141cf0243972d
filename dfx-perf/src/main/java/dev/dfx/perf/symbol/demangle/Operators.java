package dev.dfx.perf.symbol.demangle;

import java.util.Map;

/**
 * The Itanium C++ ABI's two-letter operator codes (with their operand counts in expressions) and one-letter builtin
 * types, as libiberty prints them.
 */
final class Operators {
    private Operators() {
    }

    /**
     * An operator code's spelling in an expression ({@code sizeof }, {@code delete[] } keep the space libiberty
     * prints before their operand) and its number of operands there.
     */
    record Op(String code, String spelling, int arity) {
        /** @return the spelling as an operator name prints it: {@code operator sizeof}, no trailing space */
        String asName() {
            String n = spelling.strip();
            return "operator" + (Character.isLetter(n.charAt(0)) ? " " : "") + n;
        }
    }

    private static final Map<String, Op> OPS = table(
        "aN &= 2", "aS = 2", "aa && 2", "ad & 1", "an & 2", "at alignof# 1", "aw co_await# 1", "az alignof# 1",
        "cc const_cast 2", "cl () 2", "cm , 2", "co ~ 1", "dV /= 2", "dX [...]= 3", "da delete[]# 1",
        "dc dynamic_cast 2", "de * 1", "di = 2", "dl delete# 1", "ds .* 2", "dt . 2", "dv / 2", "dx ]= 2",
        "eO ^= 2", "eo ^ 2", "eq == 2", "fL ... 3", "fR ... 3", "fl ... 2", "fr ... 2", "ge >= 2", "gs :: 1",
        "gt > 2", "ix [] 2", "lS <<= 2", "le <= 2", "ls << 2", "lt < 2", "mI -= 2", "mL *= 2", "mi - 2",
        "ml * 2", "mm -- 1", "na new[] 3", "ne != 2", "ng - 1", "nt ! 1", "nw new 3", "oR |= 2", "oo || 2",
        "or | 2", "pL += 2", "pl + 2", "pm ->* 2", "pp ++ 1", "ps + 1", "pt -> 2", "qu ? 3", "rM %= 2",
        "rS >>= 2", "rc reinterpret_cast 2", "rm % 2", "rs >> 2", "sP sizeof... 1", "sZ sizeof... 1",
        "sc static_cast 2", "ss <=> 2", "st sizeof# 1", "sz sizeof# 1", "tr throw 0", "tw throw# 1");

    /** Entries {@code "code spelling arity"}, {@code #} standing for a trailing space. */
    private static Map<String, Op> table(String... entries) {
        Map<String, Op> m = new java.util.HashMap<>();
        for (String e : entries) {
            String[] f = e.split(" ");
            m.put(f[0], new Op(f[0], f[1].replace('#', ' '), Integer.parseInt(f[2])));
        }
        return Map.copyOf(m);
    }

    /** @return the operator of a two-letter code, or {@code null} */
    static Op op(String code) {
        return OPS.get(code);
    }

    /** @return the builtin type of a one-letter code, or {@code null} */
    static String builtin(char c) {
        return switch (c) {
            case 'v' -> "void";
            case 'w' -> "wchar_t";
            case 'b' -> "bool";
            case 'c' -> "char";
            case 'a' -> "signed char";
            case 'h' -> "unsigned char";
            case 's' -> "short";
            case 't' -> "unsigned short";
            case 'i' -> "int";
            case 'j' -> "unsigned int";
            case 'l' -> "long";
            case 'm' -> "unsigned long";
            case 'x' -> "long long";
            case 'y' -> "unsigned long long";
            case 'n' -> "__int128";
            case 'o' -> "unsigned __int128";
            case 'f' -> "float";
            case 'd' -> "double";
            case 'e' -> "long double";
            case 'g' -> "__float128";
            case 'z' -> "...";
            default -> null;
        };
    }

    /** @return the builtin type of a {@code D}-prefixed code, or {@code null} */
    static String dBuiltin(char c) {
        return switch (c) {
            case 'd' -> "decimal64";
            case 'e' -> "decimal128";
            case 'f' -> "decimal32";
            case 'h' -> "half";
            case 'i' -> "char32_t";
            case 's' -> "char16_t";
            case 'u' -> "char8_t";
            case 'a' -> "auto";
            case 'c' -> "decltype(auto)";
            case 'n' -> "decltype(nullptr)";
            default -> null;
        };
    }
}
