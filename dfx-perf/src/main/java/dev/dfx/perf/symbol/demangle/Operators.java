package dev.dfx.perf.symbol.demangle;

import java.util.Map;

/** The Itanium C++ ABI's two-letter operator codes and one-letter builtin types, as libiberty prints them. */
final class Operators {
    private Operators() {
    }

    private static final Map<String, String> OPS = Map.ofEntries(
        Map.entry("nw", "new"), Map.entry("na", "new[]"), Map.entry("dl", "delete"), Map.entry("da", "delete[]"),
        Map.entry("ps", "+"), Map.entry("ng", "-"), Map.entry("ad", "&"), Map.entry("de", "*"),
        Map.entry("co", "~"), Map.entry("pl", "+"), Map.entry("mi", "-"), Map.entry("ml", "*"),
        Map.entry("dv", "/"), Map.entry("rm", "%"), Map.entry("an", "&"), Map.entry("or", "|"),
        Map.entry("eo", "^"), Map.entry("aS", "="), Map.entry("pL", "+="), Map.entry("mI", "-="),
        Map.entry("mL", "*="), Map.entry("dV", "/="), Map.entry("rM", "%="), Map.entry("aN", "&="),
        Map.entry("oR", "|="), Map.entry("eO", "^="), Map.entry("ls", "<<"), Map.entry("rs", ">>"),
        Map.entry("lS", "<<="), Map.entry("rS", ">>="), Map.entry("eq", "=="), Map.entry("ne", "!="),
        Map.entry("lt", "<"), Map.entry("gt", ">"), Map.entry("le", "<="), Map.entry("ge", ">="),
        Map.entry("ss", "<=>"), Map.entry("nt", "!"), Map.entry("aa", "&&"), Map.entry("oo", "||"),
        Map.entry("pp", "++"), Map.entry("mm", "--"), Map.entry("cm", ","), Map.entry("pm", "->*"),
        Map.entry("pt", "->"), Map.entry("cl", "()"), Map.entry("ix", "[]"), Map.entry("qu", "?"),
        Map.entry("st", "sizeof "), Map.entry("sz", "sizeof "), Map.entry("at", "alignof "),
        Map.entry("az", "alignof "), Map.entry("aw", "co_await"));

    /** @return the operator's spelling for a two-letter code, or {@code null} */
    static String name(String code) {
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
