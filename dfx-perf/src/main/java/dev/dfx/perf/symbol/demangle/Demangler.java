package dev.dfx.perf.symbol.demangle;

/**
 * dfx's Itanium C++ ABI demangler, printing what perf 6.1 prints for a symbol: libiberty's
 * {@code cplus_demangle(name, DMGL_NO_OPTS)}, the style of {@code c++filt -p -i}: the qualified name with its
 * template arguments, no parameters, no return type, no member-function qualifiers, no clone suffix
 * ({@code .cold}, {@code .isra.0}) and the short standard names ({@code std::string}). Special names print in full
 * ({@code vtable for X}, {@code non-virtual thunk to f(int)}). Rust's legacy names ({@code _ZN...17h<hash>E}) print
 * as libiberty's Rust demangler prints them, without the hash ({@link RustLegacy}). Stateless and thread-safe.
 *
 * <p>Hostile input is bounded: parsing and printing stop after {@link Parser#MAX_STEPS} steps or
 * {@link Parser#MAX_DEPTH} levels of nesting, output stops at 4,096 characters, and any name it cannot parse
 * (including the rarer template-argument expressions) gives {@code null}, never an exception.
 */
public final class Demangler {
    private Demangler() {
    }

    /**
     * @param symbol a symbol name as an ELF symbol table holds it
     * @return its demangled form, or {@code null} when it is not a mangled C++ name or cannot be parsed (perf
     *         then prints it as it is)
     */
    public static String demangle(String symbol) {
        if (symbol == null || !symbol.startsWith("_Z") || symbol.length() > 16_384) {
            return null;
        }
        String rust = RustLegacy.demangle(symbol); // libiberty tries Rust first: its legacy names are Itanium too
        if (rust != null) {
            return rust;
        }
        try {
            Node n = new Parser(symbol).mangledName();
            Node.Out o = new Node.Out();
            n.print(o);
            return o.b.length() > Node.Out.MAX ? null : o.b.toString();
        } catch (Parser.Fail e) {
            return null;
        }
    }

    /** @return {@link #demangle(String)}, or the name itself where that gives {@code null} */
    public static String demangleOrSelf(String symbol) {
        String d = demangle(symbol);
        return d == null ? symbol : d;
    }
}
