package dev.dfx.perf.symbol.demangle;

/**
 * Symbol names demangled as perf 6.1 (Debian, built without libbfd) demangles a user-space ELF symbol in
 * {@code demangle_sym} of tools/perf/util/symbol-elf.c: libiberty's {@code cplus_demangle(name, DMGL_NO_OPTS)}
 * ({@link #cplusDemangle}), then, where that printed a name ending in a Rust hash, perf's own Rust pass
 * ({@link RustAfterItanium}); where libiberty gave nothing, perf's OCaml demangler ({@link Ocaml}) and then its Java
 * demangler ({@link JavaMethod}). Stateless and thread-safe.
 *
 * <p>{@link #cplusDemangle} is dfx's own equivalent of that libiberty call, the output of {@code c++filt -p -i}:
 * Rust names first (legacy {@code _ZN...17h<hash>E} by {@link RustLegacy}, v0 {@code _R...} by {@link RustV0}),
 * then the Itanium C++ ABI: the qualified name with its template arguments, no parameters, no return type, no
 * member-function qualifiers, no clone suffix ({@code .cold}, {@code .isra.0}) and the short standard names
 * ({@code std::string}); special names print in full ({@code vtable for X}, {@code non-virtual thunk to f(int)}), and
 * so do the old global constructor and destructor names ({@code _GLOBAL__I_abc} prints
 * {@code global constructors keyed to abc}).
 *
 * <p>Hostile input is bounded: parsing and printing stop after {@link Parser#MAX_STEPS} steps or
 * {@link Parser#MAX_DEPTH} levels of nesting (1,024 for Rust, as libiberty), output stops at 4,096 characters, and
 * any name it cannot parse (including the rarer template-argument expressions) gives {@code null}, never an
 * exception.
 */
public final class Demangler {
    private static final String GLOBAL = "_GLOBAL_";

    private Demangler() {
    }

    /**
     * @param symbol a symbol name as an ELF symbol table holds it (one byte per character)
     * @return what perf 6.1 prints for it, or {@code null} when perf prints it as it is
     */
    public static String demangle(String symbol) {
        if (symbol == null) {
            return null;
        }
        String d = cplusDemangle(symbol);
        if (d != null) {
            return RustAfterItanium.apply(d);
        }
        d = Ocaml.demangle(symbol);
        return d != null ? d : JavaMethod.demangle(symbol);
    }

    /**
     * libiberty's {@code cplus_demangle(name, DMGL_NO_OPTS)} (binutils 2.40, {@code c++filt -p -i}).
     *
     * @param symbol a symbol name
     * @return its demangled form, or {@code null} when it is not a mangled Rust or C++ name or cannot be parsed
     */
    public static String cplusDemangle(String symbol) {
        if (symbol == null || symbol.length() > 16_384) {
            return null;
        }
        if (symbol.startsWith("_R")) {
            return RustV0.demangle(symbol); // Itanium names all start with _Z or _GLOBAL_
        }
        if (symbol.startsWith(GLOBAL)) {
            return globalStructors(symbol);
        }
        if (!symbol.startsWith("_Z")) {
            return null;
        }
        String rust = RustLegacy.demangle(symbol); // libiberty tries Rust first: its legacy names are Itanium too
        if (rust != null) {
            return rust;
        }
        try {
            return print(new Parser(symbol).mangledName());
        } catch (Parser.Fail e) {
            return null;
        }
    }

    /**
     * {@code _GLOBAL_} and one of {@code . _ $}, then {@code I_} or {@code D_}: GCC's old names for a unit's static
     * constructors and destructors, keyed to the rest (not empty), which prints as it is or, when it is a mangled
     * name, as its full encoding with parameters ({@code _GLOBAL__I__Z1fv} prints
     * {@code global constructors keyed to f()}).
     */
    private static String globalStructors(String symbol) {
        int n = GLOBAL.length();
        if (symbol.length() < n + 3 || ".$_".indexOf(symbol.charAt(n)) < 0 || "ID".indexOf(symbol.charAt(n + 1)) < 0
            || symbol.charAt(n + 2) != '_') {
            return null;
        }
        String what = symbol.charAt(n + 1) == 'I' ? "global constructors keyed to " : "global destructors keyed to ";
        String key = symbol.substring(n + 3);
        if (key.isEmpty()) {
            return null;
        }
        if (!key.startsWith("_Z")) {
            return what + key;
        }
        try {
            String d = print(new Parser(key).fullEncoding());
            return d == null ? null : what + d;
        } catch (Parser.Fail e) {
            return null;
        }
    }

    private static String print(Node n) {
        Node.Out o = new Node.Out();
        n.print(o);
        return o.b.length() > Node.Out.MAX ? null : o.b.toString();
    }

    /** @return {@link #demangle(String)}, or the name itself where that gives {@code null} */
    public static String demangleOrSelf(String symbol) {
        String d = demangle(symbol);
        return d == null ? symbol : d;
    }
}
