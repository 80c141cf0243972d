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
    /** Inside a lambda's signature, where template parameters are a generic lambda's {@code auto:N}. */
    private boolean lambdaSignature;

    Parser(String s) {
        this.s = s;
    }

    /** @return the top-level encoding after {@code _Z}, without parameters, as perf prints symbols */
    Node mangledName() {
        pos = 2;
        return encoding(true);
    }

    /** @return the encoding after {@code _Z} with its parameters, as it prints inside another name */
    Node fullEncoding() {
        pos = 2;
        return encoding(false);
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
                    // libiberty reads a decimal number here (none is 0) and leaves what follows
                    Node n = name();
                    return prefixed("reference temporary #" + optionalNumber() + " for ", n);
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

    /** @return a decimal number where one is, else 0 (libiberty's {@code d_number} on no digits) */
    private long optionalNumber() {
        return Character.isDigit(peek()) || peek() == 'n' && Character.isDigit(peek(1)) ? number() : 0;
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
            if (c != 'I') {
                // template arguments after a constructor keep it a constructor: no return type follows
                template = false;
                structor = false;
            }
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
        boolean two = eat('_');
        long n = optionalNumber();
        if (two && n >= 10) {
            expect('_');
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
            boolean held = lambdaSignature;
            lambdaSignature = true;
            List<Node> ps = params();
            lambdaSignature = held;
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
        return new Node.Name(id);
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
        Operators.Op op = Operators.op(code);
        if (op == null) {
            throw new Fail();
        }
        return new Node.Text(op.asName());
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
        return templateArgsBody();
    }

    /** Template arguments up to and including {@code E}, the {@code I} already read. */
    private List<Node> templateArgsBody() {
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
                pos++;
                Node e = expression();
                expect('E');
                return e;
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
                return t; // libiberty prints the type alone
            }
            throw new Fail();
        }
        // libiberty keeps the value as the text up to E (digits, or a float's hex image)
        boolean neg = eat('n');
        int start = pos;
        while (peek() != 'E') {
            next();
        }
        String digits = s.substring(start, pos);
        String v = (neg ? "-" : "") + digits;
        expect('E');
        boolean builtin = t instanceof Builtin;
        String suffix = !builtin ? null : switch (code) {
            case 'i' -> "";
            case 'j' -> "u";
            case 'l' -> "l";
            case 'm' -> "ul";
            case 'x' -> "ll";
            case 'y' -> "ull";
            default -> null;
        };
        if (builtin && code == 'b' && (v.equals("0") || v.equals("1"))) {
            return new Expr.Literal(v.equals("1") ? "true" : "false");
        }
        boolean real = builtin && (code == 'd' || code == 'e' || code == 'f' || code == 'g'
            || code == 'D' && render(t).equals("half"));
        String value = real ? (neg ? "-" : "") + "[" + digits + "]" : v;
        return new Expr.Literal(suffix != null ? v + suffix : "(" + render(t) + ")" + value);
    }

    /**
     * @return the argument a template parameter names (an argument pack wrapped in a {@link Expr.ParamRef}, for
     *         pack expansions), or inside a lambda's signature the generic lambda's {@code auto:N}
     */
    private Node templateParam() {
        expect('T');
        int i = peek() == '_' ? 0 : (int) number() + 1;
        expect('_');
        if (lambdaSignature) {
            return new Node.Text("auto:" + (i + 1));
        }
        if (templateArgs == null || i >= templateArgs.size()) {
            throw new Fail();
        }
        Node a = templateArgs.get(i);
        return a instanceof Node.Pack ? new Expr.ParamRef(a) : a;
    }

    // ---- expressions ----

    /** {@code <expression>}, as libiberty's {@code d_expression_1} reads it. */
    private Node expression() {
        in();
        try {
            char c = peek();
            char d = peek(1);
            if (c == 'L') {
                return literal();
            }
            if (c == 'T') {
                Node p = templateParam();
                return p instanceof Expr.ParamRef ? p : new Expr.ParamRef(p);
            }
            if (c == 's' && d == 'r') {
                pos += 2;
                Node t = type();
                return new Node.Qualified(t, unqualifiedWithArgs());
            }
            if (c == 's' && d == 'p') {
                pos += 2;
                return new Expr.PackExpansion(expression());
            }
            if (c == 'f' && d == 'p') {
                pos += 2;
                if (eat('T')) {
                    return new Expr.FunctionParam(0);
                }
                long i = peek() == '_' ? 0 : number() + 1;
                expect('_');
                return new Expr.FunctionParam(i + 1);
            }
            if (Character.isDigit(c) || c == 'o' && d == 'n') {
                if (c == 'o') {
                    pos += 2;
                }
                return unqualifiedWithArgs();
            }
            if ((c == 'i' || c == 't') && d == 'l') {
                pos += 2;
                Node t = c == 't' ? type() : null;
                return new Expr.InitList(t, exprList('E'));
            }
            if (c == 'c' && d == 'v') {
                pos += 2;
                Node t = type();
                return new Expr.Cast(t, eat('_') ? exprList('E') : expression());
            }
            return operation();
        } finally {
            depth--;
        }
    }

    /** An operator and its operands. */
    private Node operation() {
        Operators.Op op = Operators.op(s.substring(pos, Math.min(pos + 2, s.length())));
        if (op == null) {
            throw new Fail();
        }
        pos += 2;
        String code = op.code();
        if (code.equals("st")) {
            return new Expr.Unary(op, type(), false);
        }
        switch (op.arity()) {
            case 0:
                return new Expr.Nullary(op);
            case 1: {
                boolean suffix = (code.equals("pp") || code.equals("mm")) && !eat('_');
                Node operand = code.equals("sP") ? new Expr.ExprList(templateArgsBody()) : expression();
                return new Expr.Unary(op, operand, suffix);
            }
            case 2: {
                Node left;
                if (code.equals("sc") || code.equals("dc") || code.equals("cc") || code.equals("rc")) {
                    left = type();
                } else if (code.charAt(0) == 'f') {
                    left = foldOperator();
                } else if (code.equals("di")) {
                    left = unqualified(null);
                } else {
                    left = expression();
                }
                Node right;
                if (code.equals("cl")) {
                    right = exprList('E');
                } else if (code.equals("dt") || code.equals("pt")) {
                    right = unqualifiedWithArgs();
                } else {
                    right = expression();
                }
                return new Expr.Binary(op, left, right);
            }
            default: {
                if (code.equals("qu") || code.equals("dX")) {
                    Node a = expression();
                    Node b = expression();
                    return new Expr.Trinary(op, a, b, expression());
                }
                if (code.equals("fL") || code.equals("fR")) {
                    Node f = foldOperator();
                    Node a = expression();
                    return new Expr.Trinary(op, f, a, expression());
                }
                Node placement = exprList('_');
                Node t = type();
                Node init;
                if (eat('E')) {
                    init = null;
                } else if (peek() == 'p' && peek(1) == 'i') {
                    pos += 2;
                    init = exprList('E');
                } else if (peek() == 'i' && peek(1) == 'l') {
                    init = expression();
                } else {
                    throw new Fail();
                }
                return new Expr.Trinary(op, placement, t, init);
            }
        }
    }

    private Node foldOperator() {
        Operators.Op op = Operators.op(s.substring(pos, Math.min(pos + 2, s.length())));
        if (op == null) {
            throw new Fail();
        }
        pos += 2;
        return new Expr.OpNode(op);
    }

    /** An unqualified name with the template arguments that may follow it (they do not change the context's). */
    private Node unqualifiedWithArgs() {
        Node n = unqualified(null);
        return peek() == 'I' ? new Node.Template(n, templateArgs()) : n;
    }

    /** Expressions up to {@code end}, which is consumed. */
    private Expr.ExprList exprList(char end) {
        List<Node> items = new ArrayList<>();
        while (!eat(end)) {
            step();
            items.add(expression());
        }
        return new Expr.ExprList(items);
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
            char c = peek() == 'D' && "xoOw".indexOf(peek(1)) >= 0 ? 'Q' : peek();
            String b = Operators.builtin(c);
            if (b != null) {
                pos++;
                return new Builtin(b);
            }
            Node t;
            switch (c) {
                case 'r', 'V', 'K', 'Q' -> {
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
                    t = reference(type(), "&");
                }
                case 'O' -> {
                    pos++;
                    t = reference(type(), "&&");
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

    /**
     * A reference to {@code to}, collapsed as libiberty collapses a reference to a template parameter that is
     * itself a reference: {@code & &} and {@code && &} are {@code &}, {@code && &&} is {@code &&}, {@code & &&} is
     * {@code &} to what the inner one refers to. (A mangled name has no other reference to a reference.)
     */
    private static Node reference(Node to, String sigil) {
        if (to instanceof Node.Pointer p && (p.sigil.equals("&") || p.sigil.equals("&&"))) {
            return p.sigil.equals("&") || sigil.equals("&&") ? p : new Node.Pointer(p.to, "&");
        }
        return new Node.Pointer(to, sigil);
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
            case 't', 'T': {
                Node e = expression();
                expect('E');
                return new Expr.Decltype(e);
            }
            case 'p':
                return new Expr.PackExpansion(type());
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
        while (true) {
            step();
            if (eat('r')) {
                q = " restrict" + q;
            } else if (eat('V')) {
                q = " volatile" + q;
            } else if (eat('K')) {
                q = " const" + q;
            } else if (peek() == 'D' && "xoOw".indexOf(peek(1)) >= 0) {
                pos++;
                q = functionQual(next()) + q;
            } else {
                return q;
            }
        }
    }

    /** A function type's {@code Dx}, {@code Do}, {@code DO expr E} or {@code Dw types E}, as libiberty prints it. */
    private String functionQual(char c) {
        switch (c) {
            case 'x':
                return " transaction_safe";
            case 'o':
                return " noexcept";
            case 'O': {
                Node e = expression();
                expect('E');
                return " noexcept(" + render(e) + ")";
            }
            default: {
                List<Node> types = new ArrayList<>();
                while (!eat('E')) {
                    types.add(type());
                }
                Node.Out o = new Node.Out();
                Node.list(o, types);
                return " throw(" + o.b + ")";
            }
        }
    }

    private static String render(Node n) {
        Node.Out o = new Node.Out();
        n.print(o);
        return o.b.toString();
    }
}
