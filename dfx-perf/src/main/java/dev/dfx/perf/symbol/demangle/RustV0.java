package dev.dfx.perf.symbol.demangle;

/**
 * Rust's v0 symbol mangling ({@code _R...}, RFC 2603), printed as libiberty's {@code rust_demangle} prints it without
 * {@code DMGL_VERBOSE}, which is what perf 6.1's {@code cplus_demangle(name, DMGL_NO_OPTS)} runs for such a name:
 * paths joined by {@code ::}, crate roots without their disambiguator ({@code mycrate}, not
 * {@code mycrate[1234]}), generic arguments as {@code ::<...>} in a value path and {@code <...>} in a type, closures
 * and shims as {@code {closure#0}} and {@code {shim:vtable#0}}, impls as {@code <T as Trait>} or {@code <T>},
 * constants without their type ({@code 3}, {@code -1}, {@code true}, {@code 'a'}), punycode identifiers decoded to
 * UTF-8, lifetimes as {@code 'a} inside {@code for<...>} binders, and the instantiating crate (a trailing path) and
 * any {@code .suffix} left out.
 *
 * <p>libiberty's quirks are kept, as perf prints them: a string constant or a path, type or constant with an unknown
 * tag makes the whole name fail; an integer constant of more than 16 hex digits prints as {@code 0x} and as many
 * characters ending at the {@code _} after the digits ({@code Ko123456789abcdef0123_} prints
 * {@code 0x23456789abcdef0123_}); an ABI's {@code _} is {@code -} except right after another {@code _}; a
 * back-reference is followed wherever it points, bounded by the recursion limit of 1,024 nested paths, types and
 * constants; a punycode identifier whose last delta is cut short prints as nothing; decoded code points are written
 * as UTF-8 bytes without validation.
 *
 * <p>dfx's own bounds, where libiberty has none: more than {@link Node.Out#MAX} characters of output (back-references
 * can double it at each level, libiberty then needs up to gigabytes), more than {@link Parser#MAX_STEPS} paths,
 * types and constants, or a binder of more than {@link Node.Out#MAX} lifetimes (libiberty counts to it one by one,
 * up to 2^64) give {@code null} ({@link #exceedsBounds}).
 *
 * <p>Names are Java strings holding one byte per character (ISO-8859-1, as {@code ElfFile} reads them); the result
 * holds the UTF-8 bytes of decoded identifiers the same way. Not thread-safe: one instance per name
 * ({@link #demangle(String)} makes it).
 */
final class RustV0 {
    private static final int MAX_RECURSION = 1024;

    private final String sym;
    /** The mangled name's length up to its first {@code .} (a suffix libiberty ignores). */
    private final int end;
    private final StringBuilder out = new StringBuilder();
    /** The next character to read; a {@code long} as a back-reference may point anywhere (size_t in libiberty). */
    private long next;
    private boolean errored;
    /** Whether dfx's own bounds (output or steps), not libiberty's grammar, stopped the name. */
    private boolean capped;
    private boolean skipping;
    private int recursion;
    private int steps;
    private long boundLifetimes;

    private RustV0(String sym, int end) {
        this.sym = sym;
        this.end = end;
    }

    /**
     * @param symbol a symbol name (one byte per character)
     * @return its demangled form, or {@code null} when it is not a v0 Rust name libiberty accepts
     */
    static String demangle(String symbol) {
        RustV0 d = run(symbol);
        return d == null || d.errored ? null : d.out.toString();
    }

    /**
     * @param symbol a symbol name
     * @return whether dfx gives up on it for its bounds alone: more than {@link Node.Out#MAX} characters of output
     *         or {@link Parser#MAX_STEPS} paths, types and constants, where libiberty would carry on (and, as
     *         back-references can double the output at each level, perhaps exhaust memory)
     */
    static boolean exceedsBounds(String symbol) {
        RustV0 d = run(symbol);
        return d != null && d.capped;
    }

    private static RustV0 run(String symbol) {
        if (!symbol.startsWith("_R") || symbol.length() < 3 || !isUpper(symbol.charAt(2))) {
            return null;
        }
        String s = symbol.substring(2);
        int len = 0;
        while (len < s.length() && s.charAt(len) != '.') {
            char c = s.charAt(len);
            if (!(c == '_' || isAlnum(c))) {
                return null;
            }
            len++;
        }
        RustV0 d = new RustV0(s, len);
        d.path(true);
        if (!d.errored && d.next < d.end) {
            d.skipping = true; // the instantiating crate
            d.path(false);
        }
        d.errored |= d.next != d.end;
        return d;
    }

    // ---- reading

    private char peek() {
        return next >= 0 && next < end ? sym.charAt((int) next) : 0;
    }

    private boolean eat(char c) {
        if (peek() == c) {
            next++;
            return true;
        }
        return false;
    }

    private char take() {
        char c = peek();
        if (c == 0) {
            errored = true;
        } else {
            next++;
        }
        return c;
    }

    /** A base-62 number ended by {@code _}; {@code _} alone is 0, otherwise the digits' value plus one. */
    private long base62() {
        if (eat('_')) {
            return 0;
        }
        long x = 0;
        while (!eat('_') && !errored) {
            char c = take();
            x *= 62;
            if (isDigit(c)) {
                x += c - '0';
            } else if (c >= 'a' && c <= 'z') {
                x += 10 + (c - 'a');
            } else if (isUpper(c)) {
                x += 36 + (c - 'A');
            } else {
                errored = true;
                return 0;
            }
        }
        return x + 1;
    }

    private long optBase62(char tag) {
        return eat(tag) ? 1 + base62() : 0;
    }

    /** Lower-case hex digits ended by {@code _}: {value, digit count}. */
    private long[] hexNibbles() {
        long value = 0;
        long digits = 0;
        while (!eat('_')) {
            value <<= 4;
            char c = take();
            if (isDigit(c)) {
                value |= c - '0';
            } else if (c >= 'a' && c <= 'f') {
                value |= 10 + (c - 'a');
            } else {
                errored = true;
                return new long[] {0, 0};
            }
            digits++;
        }
        return new long[] {value, digits};
    }

    /** An identifier: its ASCII part {@code [asciiStart, asciiEnd)} and its punycode part (empty when none). */
    private record Ident(int asciiStart, int asciiEnd, int punyStart, int punyEnd) {
        static final Ident NONE = new Ident(0, 0, 0, 0);

        boolean isEmpty() {
            return asciiEnd == asciiStart && punyEnd == punyStart;
        }
    }

    private Ident ident() {
        boolean punycode = eat('u');
        char c = take();
        if (!isDigit(c)) {
            errored = true;
            return Ident.NONE;
        }
        long len = c - '0';
        if (c != '0') {
            while (isDigit(peek())) {
                len = len * 10 + (take() - '0');
            }
        }
        eat('_');
        long start = next;
        long stop = start + len;
        if (Long.compareUnsigned(start, stop) > 0 || Long.compareUnsigned(stop, end) > 0) {
            errored = true;
            return Ident.NONE;
        }
        next = stop;
        int a = (int) start;
        int z = (int) stop;
        if (!punycode) {
            return new Ident(a, z, a, a);
        }
        int sep = z - 1; // the last '_' separates the ASCII part from the punycode deltas
        while (sep >= a && sym.charAt(sep) != '_') {
            sep--;
        }
        int punyStart = sep >= a ? sep + 1 : a;
        if (punyStart == z) {
            errored = true;
            return Ident.NONE;
        }
        return new Ident(a, Math.max(a, sep), punyStart, z);
    }

    // ---- printing

    private void print(String s) {
        print(s, 0, s.length());
    }

    /** Output past {@link Node.Out#MAX} characters fails the name, which also stops any further work. */
    private void print(CharSequence s, int from, int to) {
        if (!errored && !skipping) {
            out.append(s, from, to);
            if (out.length() > Node.Out.MAX) {
                errored = true;
                capped = true;
            }
        }
    }

    private void printIdent(Ident id) {
        if (errored || skipping) {
            return;
        }
        if (id.punyEnd == id.punyStart) {
            print(sym, id.asciiStart, id.asciiEnd);
            return;
        }
        byte[] utf8 = Punycode.decode(sym, id.asciiStart, id.asciiEnd, id.punyStart, id.punyEnd);
        if (utf8 == Punycode.INVALID) {
            errored = true;
        } else if (utf8 != null) {
            StringBuilder b = new StringBuilder(utf8.length);
            for (byte x : utf8) {
                b.append((char) (x & 0xff));
            }
            print(b, 0, b.length());
        }
    }

    private void printLifetime(long index) {
        print("'");
        if (index == 0) {
            print("_");
            return;
        }
        long depth = boundLifetimes - index;
        if (Long.compareUnsigned(depth, 26) < 0) {
            print(String.valueOf((char) ('a' + depth)));
        } else {
            print("_");
            print(Long.toUnsignedString(depth));
        }
    }

    // ---- grammar

    /**
     * A back-reference: reads its target and, unless printing is off (libiberty does not follow it then), parses
     * there and comes back.
     */
    private void atBackref(Runnable parse) {
        long target = base62();
        if (!skipping) {
            long back = next;
            next = target;
            parse.run();
            next = back;
        }
    }

    /** Counts a nested path, type or constant; work is bounded also where back-references print nothing. */
    private boolean enter() {
        if (++recursion > MAX_RECURSION) {
            errored = true;
            return false;
        }
        if (++steps > Parser.MAX_STEPS) {
            errored = true;
            capped = true;
            return false;
        }
        return true;
    }

    private void binder() {
        if (errored) {
            return;
        }
        long n = optBase62('G');
        if (n != 0) {
            print("for<");
            if (Long.compareUnsigned(n, Node.Out.MAX) > 0) {
                // libiberty counts them one by one, printing or not: more than the output cap, or (not printing)
                // a loop of up to 2^64 turns
                errored = true;
                capped = true;
                return;
            }
            for (long i = 0; Long.compareUnsigned(i, n) < 0 && !errored; i++) {
                if (i > 0) {
                    print(", ");
                }
                boundLifetimes++;
                printLifetime(1);
            }
            print("> ");
        }
    }

    private void path(boolean inValue) {
        if (errored) {
            return;
        }
        if (enter()) {
            pathBody(inValue);
        }
        recursion--;
    }

    private void pathBody(boolean inValue) {
        char tag = take();
        switch (tag) {
            case 'C' -> {
                optBase62('s'); // the crate's disambiguator prints only when verbose
                printIdent(ident());
            }
            case 'N' -> {
                char ns = take();
                if (!isLower(ns) && !isUpper(ns)) {
                    errored = true;
                    return;
                }
                path(inValue);
                long dis = optBase62('s');
                Ident name = ident();
                if (isUpper(ns)) {
                    print("::{");
                    print(ns == 'C' ? "closure" : ns == 'S' ? "shim" : String.valueOf(ns));
                    if (!name.isEmpty()) {
                        print(":");
                        printIdent(name);
                    }
                    print("#");
                    print(Long.toUnsignedString(dis));
                    print("}");
                } else if (!name.isEmpty()) {
                    print("::");
                    printIdent(name);
                }
            }
            case 'M', 'X', 'Y' -> {
                if (tag != 'Y') {
                    optBase62('s');
                    boolean was = skipping;
                    skipping = true; // the impl's own path
                    path(inValue);
                    skipping = was;
                }
                print("<");
                type();
                if (tag != 'M') {
                    print(" as ");
                    path(false);
                }
                print(">");
            }
            case 'I' -> {
                path(inValue);
                if (inValue) {
                    print("::");
                }
                print("<");
                genericArgs();
                print(">");
            }
            case 'B' -> {
                atBackref(() -> path(inValue));
            }
            default -> errored = true;
        }
    }

    private void genericArgs() {
        for (int i = 0; !errored && !eat('E'); i++) {
            if (i > 0) {
                print(", ");
            }
            genericArg();
        }
    }

    private void genericArg() {
        if (eat('L')) {
            printLifetime(base62());
        } else if (eat('K')) {
            constant();
        } else {
            type();
        }
    }

    private static String basicType(char tag) {
        return switch (tag) {
            case 'b' -> "bool";
            case 'c' -> "char";
            case 'e' -> "str";
            case 'u' -> "()";
            case 'a' -> "i8";
            case 's' -> "i16";
            case 'l' -> "i32";
            case 'x' -> "i64";
            case 'n' -> "i128";
            case 'i' -> "isize";
            case 'h' -> "u8";
            case 't' -> "u16";
            case 'm' -> "u32";
            case 'y' -> "u64";
            case 'o' -> "u128";
            case 'j' -> "usize";
            case 'f' -> "f32";
            case 'd' -> "f64";
            case 'z' -> "!";
            case 'p' -> "_";
            case 'v' -> "...";
            default -> null;
        };
    }

    private void type() {
        if (errored) {
            return;
        }
        char tag = take();
        String basic = basicType(tag);
        if (basic != null) {
            print(basic);
            return;
        }
        if (enter()) {
            typeBody(tag);
        }
        recursion--;
    }

    private void typeBody(char tag) {
        switch (tag) {
            case 'R', 'Q' -> {
                print("&");
                if (eat('L')) {
                    long lt = base62();
                    if (lt != 0) {
                        printLifetime(lt);
                        print(" ");
                    }
                }
                if (tag == 'Q') {
                    print("mut ");
                }
                type();
            }
            case 'P', 'O' -> {
                print(tag == 'P' ? "*const " : "*mut ");
                type();
            }
            case 'A', 'S' -> {
                print("[");
                type();
                if (tag == 'A') {
                    print("; ");
                    constant();
                }
                print("]");
            }
            case 'T' -> {
                print("(");
                int i = 0;
                for (; !errored && !eat('E'); i++) {
                    if (i > 0) {
                        print(", ");
                    }
                    type();
                }
                if (i == 1) {
                    print(",");
                }
                print(")");
            }
            case 'F' -> fnType();
            case 'D' -> dynType();
            case 'B' -> {
                atBackref(this::type);
            }
            default -> {
                next--; // the tag starts a path
                path(false);
            }
        }
    }

    private void fnType() {
        long outer = boundLifetimes;
        binder();
        if (eat('U')) {
            print("unsafe ");
        }
        if (eat('K')) {
            String abi;
            if (eat('C')) {
                abi = "C";
            } else {
                Ident id = ident();
                if (id.asciiEnd == id.asciiStart || id.punyEnd != id.punyStart) {
                    errored = true;
                    boundLifetimes = outer;
                    return;
                }
                abi = sym.substring(id.asciiStart, id.asciiEnd);
            }
            print("extern \"");
            printAbi(abi);
            print("\" ");
        }
        print("fn(");
        for (int i = 0; !errored && !eat('E'); i++) {
            if (i > 0) {
                print(", ");
            }
            type();
        }
        print(")");
        if (!eat('u')) {
            print(" -> ");
            type();
        }
        boundLifetimes = outer;
    }

    /**
     * The mangler wrote an ABI's {@code -} as {@code _}; libiberty joins the parts with {@code -} again, but after
     * each {@code _} it resumes its scan one character late, so an {@code _} right after another stays as it is
     * ({@code a__b} prints {@code a-_b}).
     */
    private void printAbi(String abi) {
        int from = 0;
        for (int i = 0; from + i < abi.length(); i++) {
            if (abi.charAt(from + i) == '_') {
                print(abi, from, from + i);
                print("-");
                from += i + 1;
                i = 0;
            }
        }
        print(abi, from, abi.length());
    }

    private void dynType() {
        print("dyn ");
        long outer = boundLifetimes;
        binder();
        for (int i = 0; !errored && !eat('E'); i++) {
            if (i > 0) {
                print(" + ");
            }
            dynTrait();
        }
        boundLifetimes = outer;
        if (!eat('L')) {
            errored = true;
            return;
        }
        long lt = base62();
        if (lt != 0) {
            print(" + ");
            printLifetime(lt);
        }
    }

    /** A trait of a trait object, with its associated-type bindings inside its {@code <...>}. */
    private void dynTrait() {
        if (errored) {
            return;
        }
        boolean open = pathMaybeOpenGenerics();
        while (eat('p')) {
            print(open ? ", " : "<");
            open = true;
            printIdent(ident());
            print(" = ");
            type();
        }
        if (open) {
            print(">");
        }
    }

    /** A path whose generic arguments' {@code <...>} is left open: @return whether it is open. */
    private boolean pathMaybeOpenGenerics() {
        if (errored) {
            return false;
        }
        boolean open = false;
        if (enter()) {
            if (eat('B')) {
                boolean[] opened = {false};
                atBackref(() -> opened[0] = pathMaybeOpenGenerics());
                open = opened[0];
            } else if (eat('I')) {
                path(false);
                print("<");
                open = true;
                genericArgs();
            } else {
                path(false);
            }
        }
        recursion--;
        return open;
    }

    private void constant() {
        if (errored) {
            return;
        }
        if (enter()) {
            constantBody();
        }
        recursion--;
    }

    private void constantBody() {
        if (eat('B')) {
            atBackref(this::constant);
            return;
        }
        char tag = take();
        switch (tag) {
            case 'p' -> print("_");
            case 'h', 't', 'm', 'y', 'o', 'j' -> unsignedConst();
            case 'a', 's', 'l', 'x', 'n', 'i' -> {
                if (eat('n')) {
                    print("-");
                }
                unsignedConst();
            }
            case 'b' -> {
                long[] v = hexNibbles();
                if (v[1] != 1 || v[0] > 1) {
                    errored = true;
                } else {
                    print(v[0] == 0 ? "false" : "true");
                }
            }
            case 'c' -> charConst();
            default -> errored = true;
        }
    }

    private void unsignedConst() {
        if (errored) {
            return;
        }
        long[] v = hexNibbles();
        if (Long.compareUnsigned(v[1], 16) > 0) {
            // past 64 bits: libiberty prints as many characters as there are digits, ending at the '_' it read
            print("0x");
            print(sym, (int) (next - v[1]), (int) next);
        } else if (v[1] > 0) {
            print(Long.toUnsignedString(v[0]));
        } else {
            errored = true;
        }
    }

    private void charConst() {
        long[] v = hexNibbles();
        if (v[1] == 0 || v[1] > 8) {
            errored = true;
            return;
        }
        long c = v[0];
        print("'");
        if (c == '\t') {
            print("\\t");
        } else if (c == '\r') {
            print("\\r");
        } else if (c == '\n') {
            print("\\n");
        } else if (c > ' ' && c < '~') {
            print(String.valueOf((char) c));
        } else {
            print("\\u{" + Long.toHexString(c) + "}");
        }
        print("'");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isAlnum(char c) {
        return isDigit(c) || isUpper(c) || isLower(c);
    }
}
