package dev.dfx.perf.symbol.demangle;

import java.util.ArrayList;
import java.util.List;

/**
 * A recursive-descent parser of one Itanium C++ ABI mangled name ({@code _Z...}, the grammar of the ABI's
 * "Mangling" chapter) into {@link Node}s, with the substitution table ({@code S_}, {@code S0_}, ...), the
 * standard abbreviations ({@code St}, {@code Sa}, {@code Ss}, ...) and template parameters ({@code T_}) resolved
 * as libiberty resolves them. Every step either consumes input or fails, and the number of steps and the nesting
 * depth are capped, so a hostile name ends in {@link Fail} after bounded work. One instance per name; not
 * thread-safe.
 */
final class Parser {
    /** Nesting depth past which a name is given up (libiberty refuses deeper names too). */
    static final int MAX_DEPTH = 256;
    /** Parse and print steps past which a name is given up. */
    static final int MAX_STEPS = 100_000;

    /** Thrown (without a stack trace) when the input is not a name this parser understands. */
    static final class Fail extends RuntimeException {
        Fail() {
            super(null, null, false, false);
        }
    }

    private final String s;
    private int pos;
    private int steps;
    private int depth;
    private final List<Node> subs = new ArrayList<>();
    private List<Node> templateArgs;
    /** Set by {@link #name}: the last component takes template arguments. */
    private boolean endsInTemplate;
    /** Set by {@link #name}: the last component is a constructor, destructor or conversion operator. */
    private boolean endsInStructor;
    /** Set by {@link #name}: a member function's cv- and ref-qualifiers ({@code " const"}). */
    private String fnQuals = "";
    /** The last source name seen outside template arguments: what a constructor or destructor is called. */
    private String lastName;

    Parser(String s) {
        this.s = s;
    }

    /** @return the top-level encoding after {@code _Z}, without parameters, as perf prints symbols */
    Node mangledName() {
        pos = 2;
        return encoding(true);
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : 0;
    }

    private char peek(int ahead) {
        return pos + ahead < s.length() ? s.charAt(pos + ahead) : 0;
    }

    private boolean eat(char c) {
        if (peek() == c) {
            pos++;
            return true;
        }
        return false;
    }

    private char next() {
        if (pos >= s.length()) {
            throw new Fail();
        }
        return s.charAt(pos++);
    }

    private void expect(char c) {
        if (!eat(c)) {
            throw new Fail();
        }
    }

    private void step() {
        if (++steps > MAX_STEPS) {
            throw new Fail();
        }
    }

    private void in() {
        step();
        if (++depth > MAX_DEPTH) {
            throw new Fail();
        }
    }

    private Node encoding(boolean top) {
        return encoding(top, true);
    }

    /** @param returnType whether a template function's return type prints (not for a local name's function) */
    private Node encoding(boolean top, boolean returnType) {
        in();
        try {
            char c = peek();
            if (c == 'G' || c == 'T') {
                return special();
            }
            Node name = name();
            boolean template = endsInTemplate && !endsInStructor;
            String quals = fnQuals;
            if (top || peek() == 0 || peek() == 'E' || peek() == '.') {
                return name;
            }
            Node ret = template ? type() : null;
            Node f = new Node.Function(returnType ? ret : null, params());
            return new Node.Encoding(name, quals.isEmpty() ? f : new Node.Qual(f, quals));
        } finally {
            depth--;
        }
    }

    /** Parameter types up to the end, {@code E} or a clone suffix; a lone {@code v} is an empty list. */
    private List<Node> params() {
        List<Node> out = new ArrayList<>();
        if (peek() == 'v' && (peek(1) == 0 || peek(1) == 'E' || peek(1) == '.')) {
            pos++;
            return out;
        }
        while (peek() != 0 && peek() != 'E' && peek() != '.') {
            out.add(type());
        }
        return out;
    }

    private Node special() {
        char c = next();
        char d = peek();
        pos++;
        if (c == 'T') {
            switch (d) {
                case 'V': return prefixed("vtable for ", type());
                case 'T': return prefixed("VTT for ", type());
                case 'I': return prefixed("typeinfo for ", type());
                case 'S': return prefixed("typeinfo name for ", type());
                case 'h':
                    callOffset('h');
                    return prefixed("non-virtual thunk to ", encoding(false));
                case 'v':
                    callOffset('v');
                    return prefixed("virtual thunk to ", encoding(false));
                case 'c':
                    callOffset(next());
                    callOffset(next());
                    return prefixed("covariant return thunk to ", encoding(false));
                case 'W': return prefixed("TLS wrapper function for ", name());
                case 'H': return prefixed("TLS init function for ", name());
                case 'C': {
                    Node derived = type();
                    number();
                    expect('_');
                    Node base = type();
                    return new Node.Text("construction vtable for " + render(base) + "-in-" + render(derived));
                }
                default: throw new Fail();
            }
        }
        if (c == 'G') {
            switch (d) {
                case 'V': return prefixed("guard variable for ", name());
                case 'A': return prefixed("hidden alias for ", encoding(false));
                case 'R': {
                    Node n = name();
                    int seq = 0;
                    if (peek() != '_') {
                        seq = base36() + 1;
                    }
                    expect('_');
                    return prefixed("reference temporary #" + seq + " for ", n);
                }
                case 'T':
                    if (eat('t')) {
                        return prefixed("transaction clone for ", encoding(false));
                    }
                    if (eat('n')) {
                        return prefixed("non-transaction clone for ", encoding(false));
                    }
                    throw new Fail();
                default: throw new Fail();
            }
        }
        throw new Fail();
    }

    private static Node prefixed(String text, Node n) {
        return new Node.Prefixed(text, n);
    }

    private void callOffset(char kind) {
        if (kind == 'h') {
            number();
            expect('_');
        } else if (kind == 'v') {
            number();
            expect('_');
            number();
            expect('_');
        } else {
            throw new Fail();
        }
    }

    private long number() {
        boolean neg = eat('n');
        int start = pos;
        long v = 0;
        while (Character.isDigit(peek())) {
            v = v * 10 + (next() - '0');
            if (pos - start > 9) {
                throw new Fail();
            }
        }
        if (pos == start) {
            throw new Fail();
        }
        return neg ? -v : v;
    }

    private int base36() {
        int v = 0;
        int start = pos;
        while (true) {
            char c = peek();
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : -1;
            if (d < 0) {
                break;
            }
            v = v * 36 + d;
            pos++;
            if (pos - start > 5) {
                throw new Fail();
            }
        }
        if (pos == start) {
            throw new Fail();
        }
        return v;
    }

    // ---- names ----

    private Node name() {
        in();
        try {
            endsInTemplate = false;
            endsInStructor = false;
            fnQuals = "";
            char c = peek();
            if (c == 'N') {
                return nested();
            }
            if (c == 'Z') {
                return local();
            }
            Node n;
            boolean sub = false;
            if (c == 'S' && peek(1) == 't') {
                pos += 2;
                n = new Node.Qualified(new Node.Text("std"), unqualified(null));
            } else if (c == 'S') {
                n = substitution(false);
                sub = true;
            } else {
                n = unqualified(null);
            }
            if (peek() == 'I') {
                if (!sub) {
                    subs.add(n);
                }
                List<Node> args = templateArgs();
                templateArgs = args;
                n = new Node.Template(n, args);
                endsInTemplate = true;
            }
            return n;
        } finally {
            depth--;
        }
    }

    private Node nested() {
        expect('N');
        String quals = cvQuals();
        if (eat('R')) {
            quals += " &";
        } else if (eat('O')) {
            quals += " &&";
        }
        Node ret = null;
        boolean template = false;
        boolean structor = false;
        while (true) {
            step();
            char c = peek();
            if (c == 'E') {
                pos++;
                break;
            }
            Node comp;
            boolean addSub = true;
            template = false;
            structor = false;
            if (c == 'S' && peek(1) == 't' && ret == null) {
                pos += 2;
                comp = new Node.Text("std");
                addSub = false;
            } else if (c == 'S' && ret == null) {
                comp = substitution(true);
                addSub = false;
            } else if (c == 'I') {
                if (ret == null) {
                    throw new Fail();
                }
                List<Node> args = templateArgs();
                templateArgs = args;
                ret = new Node.Template(ret, args);
                template = true;
                if (peek() != 'E') {
                    subs.add(ret);
                }
                continue;
            } else if (c == 'T' && ret == null) {
                comp = templateParam();
            } else if (c == 'L') {
                pos++;
                continue;
            } else if (c == 'M' && ret != null) {
                pos++;
                continue;
            } else {
                comp = unqualified(ret);
                structor = comp instanceof Node.Structor || comp instanceof Conversion;
            }
            ret = ret == null ? comp : new Node.Qualified(ret, comp);
            if (addSub && peek() != 'E') {
                subs.add(ret);
            }
        }
        if (ret == null) {
            throw new Fail();
        }
        endsInTemplate = template;
        endsInStructor = structor;
        fnQuals = quals;
        return ret;
    }

    private Node local() {
        expect('Z');
        Node fn = encoding(false, false);
        expect('E');
        Node entity;
        if (eat('s')) {
            entity = new Node.Text("string literal");
            discriminator();
            endsInTemplate = false;
            endsInStructor = false;
            fnQuals = "";
        } else {
            String arg = null;
            if (eat('d')) {
                arg = "{default arg#" + (peek() == '_' ? 1 : number() + 2) + "}";
                expect('_');
            }
            entity = name();
            discriminator();
            if (arg != null) {
                entity = new Node.Qualified(new Node.Text(arg), entity);
            }
        }
        return new Node.Qualified(fn, entity);
    }

    private void discriminator() {
        if (peek() != '_') {
            return;
        }
        pos++;
        if (eat('_')) {
            number();
            expect('_');
        } else {
            number();
        }
    }

    /** A conversion operator's name, {@code operator T}. */
    static final class Conversion extends Node.Text {
        Conversion(String s) {
            super(s);
        }
    }

    private Node unqualified(Node scope) {
        step();
        char c = peek();
        Node n;
        if (Character.isDigit(c)) {
            n = sourceName();
        } else if (c == 'C' && scope != null && peek(1) != 'v') {
            pos++;
            if (eat('I')) {
                char k = next();
                if (k < '1' || k > '5') {
                    throw new Fail();
                }
                type();
            } else {
                char k = next();
                if (k < '1' || k > '5') {
                    throw new Fail();
                }
            }
            n = structor(false);
        } else if (c == 'D' && scope != null && Character.isDigit(peek(1))) {
            pos++;
            char k = next();
            if (k > '5' || k == '3') {
                throw new Fail();
            }
            n = structor(true);
        } else if (c == 'U' && peek(1) == 't') {
            pos += 2;
            int k = peek() == '_' ? 1 : (int) number() + 2;
            expect('_');
            n = new Node.Text("{unnamed type#" + k + "}");
        } else if (c == 'U' && peek(1) == 'l') {
            pos += 2;
            List<Node> saved = templateArgs;
            List<Node> ps = params();
            templateArgs = saved;
            expect('E');
            int k = peek() == '_' ? 1 : (int) number() + 2;
            expect('_');
            Node.Out o = new Node.Out();
            o.add("{lambda(");
            Node.list(o, ps);
            o.add(")#" + k + "}");
            n = new Node.Text(o.b.toString());
        } else if (c == 'L') {
            pos++;
            n = sourceName();
            discriminator();
        } else if (c >= 'a' && c <= 'z') {
            n = operator();
        } else {
            throw new Fail();
        }
        while (peek() == 'B') {
            pos++;
            String held = lastName;
            Node tag = sourceName();
            lastName = held;
            n = new Node.Postfix(n, "[abi:" + render(tag) + "]");
        }
        return n;
    }

    private Node structor(boolean dtor) {
        if (lastName == null) {
            throw new Fail();
        }
        return new Node.Structor(lastName, dtor);
    }

    private Node sourceName() {
        long len = number();
        if (len <= 0 || pos + len > s.length()) {
            throw new Fail();
        }
        String id = s.substring(pos, pos + (int) len);
        pos += (int) len;
        if (id.length() >= 10 && id.startsWith("_GLOBAL_") && ".$_".indexOf(id.charAt(8)) >= 0
            && id.charAt(9) == 'N') {
            id = "(anonymous namespace)";
        }
        lastName = id;
        return new Node.Text(id);
    }

    private Node operator() {
        String code = s.substring(pos, Math.min(pos + 2, s.length()));
        pos += 2;
        if (code.equals("cv")) {
            Node t = type();
            return new Conversion("operator " + render(t));
        }
        if (code.equals("li")) {
            return new Node.Text("operator\"\" " + render(sourceName()));
        }
        if (code.length() == 2 && code.charAt(0) == 'v' && Character.isDigit(code.charAt(1))) {
            return new Node.Text("operator " + render(sourceName()));
        }
        String op = Operators.name(code);
        if (op == null) {
            throw new Fail();
        }
        return new Node.Text("operator" + (Character.isLetter(op.charAt(0)) ? " " : "") + op);
    }

    // ---- substitutions and template arguments ----

    private Node substitution(boolean prefix) {
        expect('S');
        char c = peek();
        if (c == '_') {
            pos++;
            return sub(0);
        }
        if (Character.isDigit(c) || c >= 'A' && c <= 'Z') {
            int i = base36() + 1;
            expect('_');
            return sub(i);
        }
        pos++;
        boolean full = prefix && (peek() == 'C' || peek() == 'D');
        Node.Std std = switch (c) {
            case 't' -> new Node.Std("std", null);
            case 'a' -> new Node.Std("std::allocator", "allocator");
            case 'b' -> new Node.Std("std::basic_string", "basic_string");
            case 's' -> new Node.Std(full ? "std::basic_string<char, std::char_traits<char>, std::allocator<char> >"
                : "std::string", "basic_string");
            case 'i' -> new Node.Std(full ? "std::basic_istream<char, std::char_traits<char> >" : "std::istream",
                "basic_istream");
            case 'o' -> new Node.Std(full ? "std::basic_ostream<char, std::char_traits<char> >" : "std::ostream",
                "basic_ostream");
            case 'd' -> new Node.Std(full ? "std::basic_iostream<char, std::char_traits<char> >" : "std::iostream",
                "basic_iostream");
            default -> throw new Fail();
        };
        if (std.last != null) {
            lastName = std.last;
        }
        return std;
    }

    private Node sub(int i) {
        if (i >= subs.size()) {
            throw new Fail();
        }
        return subs.get(i);
    }

    private List<Node> templateArgs() {
        expect('I');
        String held = lastName;
        List<Node> args = new ArrayList<>();
        while (!eat('E')) {
            args.add(templateArg());
        }
        lastName = held;
        return args;
    }

    private Node templateArg() {
        in();
        try {
            char c = peek();
            if (c == 'L') {
                return literal();
            }
            if (c == 'J') {
                pos++;
                List<Node> items = new ArrayList<>();
                while (!eat('E')) {
                    items.add(templateArg());
                }
                return new Node.Pack(items);
            }
            if (c == 'X') {
                throw new Fail();
            }
            return type();
        } finally {
            depth--;
        }
    }

    private Node literal() {
        expect('L');
        if (peek() == '_' && peek(1) == 'Z') {
            pos += 2;
            Node e = encoding(false);
            expect('E');
            return e;
        }
        if (peek() == 'Z') {
            pos++;
            Node e = encoding(false);
            expect('E');
            return e;
        }
        char code = peek();
        Node t = type();
        if (eat('E')) {
            if (code == 'D' && render(t).equals("decltype(nullptr)")) {
                return new Node.Text("(decltype(nullptr))0");
            }
            throw new Fail();
        }
        boolean neg = eat('n');
        int start = pos;
        while (Character.isDigit(peek())) {
            pos++;
        }
        if (pos == start) {
            throw new Fail();
        }
        String v = (neg ? "-" : "") + s.substring(start, pos);
        expect('E');
        String suffix = t instanceof Node.Text && !(t instanceof Builtin) ? null : switch (code) {
            case 'i' -> "";
            case 'j' -> "u";
            case 'l' -> "l";
            case 'm' -> "ul";
            case 'x' -> "ll";
            case 'y' -> "ull";
            default -> null;
        };
        if (code == 'b' && (v.equals("0") || v.equals("1"))) {
            return new Node.Text(v.equals("1") ? "true" : "false");
        }
        return new Node.Text(suffix != null ? v + suffix : "(" + render(t) + ")" + v);
    }

    private Node templateParam() {
        expect('T');
        int i = peek() == '_' ? 0 : (int) number() + 1;
        expect('_');
        if (templateArgs == null || i >= templateArgs.size()) {
            throw new Fail();
        }
        return templateArgs.get(i);
    }

    // ---- types ----

    /** A builtin type's name: never a substitution candidate. */
    static final class Builtin extends Node.Text {
        Builtin(String s) {
            super(s);
        }
    }

    private Node type() {
        in();
        try {
            char c = peek();
            String b = Operators.builtin(c);
            if (b != null) {
                pos++;
                return new Builtin(b);
            }
            Node t;
            switch (c) {
                case 'r', 'V', 'K' -> {
                    String quals = cvQuals();
                    // qualifiers of a member function's type apply to 'this': the bare function type is no
                    // substitution candidate then
                    t = new Node.Qual(peek() == 'F' ? functionType() : type(), quals);
                }
                case 'P' -> {
                    pos++;
                    t = new Node.Pointer(type(), "*");
                }
                case 'R' -> {
                    pos++;
                    t = new Node.Pointer(type(), "&");
                }
                case 'O' -> {
                    pos++;
                    t = new Node.Pointer(type(), "&&");
                }
                case 'C' -> {
                    pos++;
                    t = new Node.Postfix(type(), " _Complex");
                }
                case 'G' -> {
                    pos++;
                    t = new Node.Postfix(type(), " _Imaginary");
                }
                case 'F' -> t = functionType();
                case 'A' -> t = arrayType();
                case 'M' -> {
                    pos++;
                    Node cls = type();
                    Node mem = type();
                    t = new Node.Pointer(mem, render(cls) + "::*");
                }
                case 'T' -> {
                    t = templateParam();
                    if (peek() == 'I') {
                        subs.add(t);
                        t = new Node.Template(t, templateArgs());
                    }
                }
                case 'u' -> {
                    pos++;
                    t = sourceName();
                }
                case 'D' -> {
                    Node d = dType();
                    if (d instanceof Builtin) {
                        return d;
                    }
                    t = d;
                }
                case 'S' -> {
                    if (peek(1) == 't') {
                        t = className();
                    } else {
                        t = substitution(false);
                        if (peek() != 'I') {
                            return t;
                        }
                        t = new Node.Template(t, templateArgs());
                    }
                }
                default -> {
                    if (Character.isDigit(c) || c == 'N' || c == 'Z' || c == 'U') {
                        t = className();
                    } else {
                        throw new Fail();
                    }
                }
            }
            subs.add(t);
            return t;
        } finally {
            depth--;
        }
    }

    /** A class or enum type's name; its template arguments do not replace those of the enclosing function. */
    private Node className() {
        List<Node> saved = templateArgs;
        boolean t = endsInTemplate;
        boolean st = endsInStructor;
        String q = fnQuals;
        Node n = name();
        templateArgs = saved;
        endsInTemplate = t;
        endsInStructor = st;
        fnQuals = q;
        return n;
    }

    private Node dType() {
        pos++;
        char d = peek();
        pos++;
        String b = Operators.dBuiltin(d);
        if (b != null) {
            return new Builtin(b);
        }
        switch (d) {
            case 'F': {
                long n = number();
                expect('_');
                return new Builtin("_Float" + n);
            }
            case 'v': {
                String n = String.valueOf(number());
                expect('_');
                return new Node.Postfix(type(), " __vector(" + n + ")");
            }
            default:
                throw new Fail();
        }
    }

    private Node functionType() {
        expect('F');
        eat('Y');
        Node ret = type();
        List<Node> ps = new ArrayList<>();
        if (peek() == 'v' && peek(1) == 'E') {
            pos++;
        }
        String ref = "";
        while (!eat('E')) {
            if ((peek() == 'R' || peek() == 'O') && peek(1) == 'E') {
                ref = peek() == 'R' ? " &" : " &&";
                pos++;
                continue;
            }
            ps.add(type());
        }
        Node f = new Node.Function(ret, ps);
        return ref.isEmpty() ? f : new Node.Qual(f, ref);
    }

    private Node arrayType() {
        expect('A');
        String dim = "";
        if (Character.isDigit(peek())) {
            dim = String.valueOf(number());
        } else if (peek() != '_') {
            throw new Fail();
        }
        expect('_');
        return new Node.Array(type(), dim);
    }

    /** {@code [r][V][K]}, printed innermost first as libiberty does ({@code VKi} is {@code int const volatile}). */
    private String cvQuals() {
        String q = "";
        if (eat('r')) {
            q = " restrict" + q;
        }
        if (eat('V')) {
            q = " volatile" + q;
        }
        if (eat('K')) {
            q = " const" + q;
        }
        return q;
    }

    private static String render(Node n) {
        Node.Out o = new Node.Out();
        n.print(o);
        return o.b.toString();
    }
}
