package dev.dfx.perf.symbol.demangle;

import java.util.List;

/**
 * A parsed piece of an Itanium C++ ABI mangled name, printed in the GNU demangler's style (libiberty's
 * {@code cp-demangle.c}, what perf and {@code c++filt} print): a type prints as a left part and a right part so
 * that declarators nest ({@code void (*)(int)}, {@code int (*) [5]}). Immutable.
 */
abstract class Node {
    /** Appends the part before a declarator's name. */
    abstract void left(Out o);

    /** Appends the part after a declarator's name; most nodes have none. */
    void right(Out o) {
    }

    /** @return whether {@link #right} prints anything (functions and arrays) */
    boolean hasRight() {
        return false;
    }

    /**
     * @return whether an expression prints this operand without parentheses: names, qualified names, initializer
     *         lists and function parameters, as libiberty's {@code d_print_subexpr} decides
     */
    boolean simpleInExpression() {
        return false;
    }

    /** @return the nodes this one prints, for {@link #findPack} */
    List<Node> children() {
        return List.of();
    }

    /**
     * @return the first template parameter in this subtree that names an argument pack (outside nested pack
     *         expansions), or {@code null}: what a pack expansion repeats over (libiberty's {@code d_find_pack})
     */
    Expr.ParamRef findPack() {
        for (Node c : children()) {
            Expr.ParamRef p = c.findPack();
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    /** Prints an operand of an expression, in parentheses unless it is {@link #simpleInExpression simple}. */
    static void subexpr(Out o, Node n) {
        boolean simple = n.simpleInExpression();
        if (!simple) {
            o.add("(");
        }
        n.print(o);
        if (!simple) {
            o.add(")");
        }
    }


    final void print(Out o) {
        left(o);
        right(o);
    }

    /** A bounded output buffer: printing stops growing it past {@link #MAX} characters. */
    static final class Out {
        static final int MAX = 4096;
        final StringBuilder b = new StringBuilder();
        int depth;
        /**
         * The element of an argument pack a template parameter prints while a pack expansion repeats its pattern;
         * -1 prints the whole pack (in a fold expression). As in libiberty, it starts at 0 and an expansion leaves
         * it at its last element.
         */
        int packIndex;

        /** The last character appended, which a take-back of a separator leaves as it was (as libiberty's). */
        private char last;

        Out add(String s) {
            if (b.length() <= MAX && !s.isEmpty()) {
                b.append(s);
                last = s.charAt(s.length() - 1);
            }
            return this;
        }

        char last() {
            return last;
        }

        /** Guards against cycles and runaway nesting: a hostile name never recurses past {@link Parser#MAX_DEPTH}. */
        int calls;

        void enter() {
            if (++depth > Parser.MAX_DEPTH || b.length() > MAX || ++calls > Parser.MAX_STEPS) {
                throw new Parser.Fail();
            }
        }

        void exit() {
            depth--;
        }
    }

    /** Plain text: a source name, a builtin type, an operator, a literal. */
    static class Text extends Node {
        final String s;

        Text(String s) {
            this.s = s;
        }

        @Override
        void left(Out o) {
            o.add(s);
        }

    }

    /** @return {@code first} followed by {@code rest} */
    static List<Node> concat(Node first, List<Node> rest) {
        List<Node> l = new java.util.ArrayList<>(rest.size() + 1);
        l.add(first);
        l.addAll(rest);
        return l;
    }

    /** A source name (an identifier): the one kind of plain text an expression prints without parentheses. */
    static final class Name extends Text {
        Name(String s) {
            super(s);
        }

        @Override
        boolean simpleInExpression() {
            return true;
        }
    }

    /** {@code scope::name}. */
    static final class Qualified extends Node {
        final Node scope;
        final Node name;

        Qualified(Node scope, Node name) {
            this.scope = scope;
            this.name = name;
        }

        @Override
        boolean simpleInExpression() {
            return true;
        }

        @Override
        List<Node> children() {
            return List.of(scope, name);
        }

        @Override
        void left(Out o) {
            o.enter();
            scope.print(o);
            o.add("::");
            name.print(o);
            o.exit();
        }
    }

    /** A standard abbreviation's name: {@code std::string}, or in full before a ctor/dtor. */
    static final class Std extends Node {
        final String text;
        final String last;

        /** @param last the name its constructors take ({@code basic_string}); {@code null} for {@code std} */
        Std(String text, String last) {
            this.text = text;
            this.last = last;
        }

        @Override
        void left(Out o) {
            o.add(text);
        }

    }

    /** {@code name<args>}; a space keeps {@code >>} and {@code operator< <} apart as libiberty prints them. */
    static final class Template extends Node {
        final Node name;
        final List<Node> args;

        Template(Node name, List<Node> args) {
            this.name = name;
            this.args = args;
        }

        @Override
        List<Node> children() {
            return concat(name, args);
        }

        @Override
        void left(Out o) {
            o.enter();
            name.print(o);
            if (o.last() == '<') {
                o.add(" ");
            }
            o.add("<");
            list(o, args);
            if (o.last() == '>') {
                o.add(" ");
            }
            o.add(">");
            o.exit();
        }
    }

    /**
     * Prints items separated by {@code ", "} as libiberty's argument lists do: a trailing run of items that print
     * nothing (empty packs) takes its separators back, yet the last character seen stays the separator's space,
     * so {@code A<B<C>, <empty pack>>} closes without the space before {@code >}.
     */
    static void list(Out o, List<Node> items) {
        int n = items.size();
        int[] mark = new int[n];
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                o.add(", ");
            }
            mark[i] = o.b.length();
            items.get(i).print(o);
        }
        for (int i = n - 1; i > 0 && o.b.length() == mark[i] && o.b.length() <= Out.MAX; i--) {
            o.b.setLength(mark[i] - 2);
        }
    }

    /** Items printed comma-separated ({@link #list}). */
    abstract static class Sequence extends Node {
        final List<Node> items;

        Sequence(List<Node> items) {
            this.items = items;
        }

        @Override
        void left(Out o) {
            o.enter();
            list(o, items);
            o.exit();
        }

        @Override
        List<Node> children() {
            return items;
        }
    }

    /** A template argument pack {@code J...E}: its elements, comma-separated. */
    static final class Pack extends Sequence {
        Pack(List<Node> items) {
            super(items);
        }
    }

    /** A constructor or destructor: the class's own name. */
    static final class Structor extends Node {
        final String name;
        final boolean dtor;

        /** @param name the last source name before it, as libiberty names constructors */
        Structor(String name, boolean dtor) {
            this.name = name;
            this.dtor = dtor;
        }

        @Override
        void left(Out o) {
            o.add(dtor ? "~" : "").add(name);
        }
    }

    /** {@code type const}, {@code type volatile}, {@code type restrict}; on a function type after its parameters. */
    static final class Qual extends Node {
        final Node of;
        final String quals;

        Qual(Node of, String quals) {
            this.of = of;
            this.quals = quals;
        }

        @Override
        List<Node> children() {
            return List.of(of);
        }

        @Override
        void left(Out o) {
            o.enter();
            of.left(o);
            if (!(of instanceof Function)) {
                o.add(quals);
            }
            o.exit();
        }

        @Override
        void right(Out o) {
            o.enter();
            of.right(o);
            if (of instanceof Function) {
                o.add(quals);
            }
            o.exit();
        }

        @Override
        boolean hasRight() {
            return of.hasRight();
        }
    }

    /** {@code T*}, {@code T&}, {@code T&&}, {@code C::*}: wraps a function or array declarator in parentheses. */
    static final class Pointer extends Node {
        final Node to;
        final String sigil;

        Pointer(Node to, String sigil) {
            this.to = to;
            this.sigil = sigil;
        }

        @Override
        List<Node> children() {
            return List.of(to);
        }

        /**
         * @return the reference this one prints as when it refers to an element of an argument pack that is
         *         itself a reference (collapsed as libiberty does at print time), else this
         */
        private Pointer collapsed(Out o) {
            if (to instanceof Expr.ParamRef p && p.pack() != null && o.packIndex >= 0
                && o.packIndex < p.pack().size() && (sigil.equals("&") || sigil.equals("&&"))
                && p.pack().get(o.packIndex) instanceof Pointer e && (e.sigil.equals("&") || e.sigil.equals("&&"))) {
                return e.sigil.equals("&") || sigil.equals("&&") ? e : new Pointer(e.to, "&");
            }
            return this;
        }

        /** @return whether the pointee is itself a declarator that needs parentheses around this one */
        private boolean wraps() {
            Node t = to instanceof Qual q ? q.of : to;
            return t instanceof Function || t instanceof Array;
        }

        @Override
        void left(Out o) {
            Pointer c = collapsed(o);
            if (c != this) {
                c.left(o);
                return;
            }
            o.enter();
            to.left(o);
            if (wraps()) {
                o.add(to instanceof Array || to instanceof Qual q && q.of instanceof Array ? " (" : "(");
            } else if (sigil.endsWith("::*")) {
                o.add(" ");
            }
            o.add(sigil);
            o.exit();
        }

        @Override
        void right(Out o) {
            Pointer c = collapsed(o);
            if (c != this) {
                c.right(o);
                return;
            }
            o.enter();
            if (wraps()) {
                o.add(")");
            }
            to.right(o);
            o.exit();
        }

        @Override
        boolean hasRight() {
            return to.hasRight();
        }
    }

    /** A function type: {@code ret (params)}; {@code ret} is {@code null} where the mangling has none. */
    static final class Function extends Node {
        final Node ret;
        final List<Node> params;

        Function(Node ret, List<Node> params) {
            this.ret = ret;
            this.params = params;
        }

        @Override
        List<Node> children() {
            return ret == null ? params : concat(ret, params);
        }

        @Override
        void left(Out o) {
            o.enter();
            if (ret != null) {
                ret.left(o);
                if (!ret.hasRight()) {
                    // a returned function pointer's declarator takes this function's parameters inside it
                    o.add(" ");
                }
            }
            o.exit();
        }

        @Override
        void right(Out o) {
            o.enter();
            o.add("(");
            list(o, params);
            o.add(")");
            if (ret != null) {
                ret.right(o);
            }
            o.exit();
        }

        @Override
        boolean hasRight() {
            return true;
        }
    }

    /** An array type {@code elem [dim]}. */
    static final class Array extends Node {
        final Node elem;
        final String dim;

        Array(Node elem, String dim) {
            this.elem = elem;
            this.dim = dim;
        }

        @Override
        List<Node> children() {
            return List.of(elem);
        }

        @Override
        void left(Out o) {
            o.enter();
            elem.left(o);
            o.exit();
        }

        @Override
        void right(Out o) {
            o.enter();
            if (o.last() != ']') {
                o.add(" ");
            }
            o.add("[").add(dim).add("]");
            elem.right(o);
            o.exit();
        }

        @Override
        boolean hasRight() {
            return true;
        }
    }

    /** A special name: {@code vtable for X}, {@code non-virtual thunk to f(int)}. */
    static final class Prefixed extends Node {
        final String prefix;
        final Node of;

        Prefixed(String prefix, Node of) {
            this.prefix = prefix;
            this.of = of;
        }

        @Override
        List<Node> children() {
            return List.of(of);
        }

        @Override
        void left(Out o) {
            o.enter();
            o.add(prefix);
            of.print(o);
            o.exit();
        }
    }

    /** A postfix type: {@code elem suffix} ({@code double _Complex}, {@code float __vector(4)}, {@code T...}). */
    static final class Postfix extends Node {
        final Node of;
        final String suffix;

        Postfix(Node of, String suffix) {
            this.of = of;
            this.suffix = suffix;
        }

        @Override
        List<Node> children() {
            return List.of(of);
        }

        @Override
        void left(Out o) {
            o.enter();
            of.print(o);
            o.add(suffix);
            o.exit();
        }
    }

    /** A name with its parameters, as local names and thunks print the function they belong to. */
    static final class Encoding extends Node {
        final Node name;
        final Node function;

        Encoding(Node name, Node function) {
            this.name = name;
            this.function = function;
        }

        @Override
        List<Node> children() {
            return List.of(name, function);
        }

        @Override
        void left(Out o) {
            o.enter();
            if (function instanceof Function f) {
                if (f.ret != null) {
                    f.ret.left(o);
                    if (!f.ret.hasRight()) {
                        o.add(" ");
                    }
                }
                name.print(o);
                o.add("(");
                list(o, f.params);
                o.add(")");
                if (f.ret != null) {
                    f.ret.right(o);
                }
            } else if (function instanceof Qual q && q.of instanceof Function f) {
                new Encoding(name, f).left(o);
                o.add(q.quals);
            } else {
                name.print(o);
            }
            o.exit();
        }
    }
}
