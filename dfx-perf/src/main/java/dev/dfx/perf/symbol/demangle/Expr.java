package dev.dfx.perf.symbol.demangle;

import java.util.ArrayList;
import java.util.List;

/**
 * The expression nodes of the Itanium C++ ABI grammar ({@code <expression>}: template arguments {@code X...E},
 * {@code decltype}, array bounds, {@code noexcept(...)}) and pack expansions, printed as libiberty prints them:
 * operands in parentheses unless simple ({@link Node#subexpr}), {@code >} comparisons in an extra pair so they
 * cannot close a template argument list, a call's callee without its parameter types, {@code sizeof...} as the
 * pack's length. Immutable.
 */
final class Expr {
    private Expr() {
    }

    /**
     * A template parameter used in an expression, or one whose argument is a pack: prints its argument (for a pack,
     * the element {@link Node.Out#packIndex} selects, or all of it at -1).
     */
    static final class ParamRef extends Node {
        final Node arg;

        ParamRef(Node arg) {
            this.arg = arg;
        }

        /** @return the pack's elements, or {@code null} when the argument is no pack */
        List<Node> pack() {
            return arg instanceof Pack p ? p.items : null;
        }

        @Override
        void left(Out o) {
            o.enter();
            List<Node> items = pack();
            if (items == null || o.packIndex < 0) {
                arg.print(o);
            } else if (o.packIndex < items.size()) {
                items.get(o.packIndex).print(o);
            } else {
                throw new Parser.Fail();
            }
            o.exit();
        }

        @Override
        ParamRef findPack() {
            return pack() != null ? this : null;
        }
    }

    /** {@code Dp T} or {@code sp expr}: the pattern once per element of the pack it names, comma-separated. */
    static final class PackExpansion extends Node {
        final Node pattern;

        PackExpansion(Node pattern) {
            this.pattern = pattern;
        }

        @Override
        void left(Out o) {
            o.enter();
            ParamRef p = pattern.findPack();
            if (p == null) {
                // only function parameter packs (or a generic lambda's auto): the pattern and "..."
                subexpr(o, pattern);
                o.add("...");
            } else {
                int n = p.pack().size();
                for (int i = 0; i < n; i++) {
                    o.packIndex = i;
                    pattern.print(o);
                    if (i < n - 1) {
                        o.add(", ");
                    }
                }
            }
            o.exit();
        }

        @Override
        ParamRef findPack() {
            return null;
        }
    }

    /** {@code Dt expr E}: {@code decltype (expr)}. */
    static final class Decltype extends Node {
        final Node expr;

        Decltype(Node expr) {
            this.expr = expr;
        }

        @Override
        void left(Out o) {
            o.enter();
            o.add("decltype (");
            expr.print(o);
            o.add(")");
            o.exit();
        }

        @Override
        List<Node> children() {
            return List.of(expr);
        }
    }

    /** {@code fp N _}: a function parameter, {@code {parm#N}}, or {@code this}. */
    static final class FunctionParam extends Node.Text {
        FunctionParam(long index) {
            super(index == 0 ? "this" : "{parm#" + index + "}");
        }

        @Override
        boolean simpleInExpression() {
            return true;
        }
    }

    /** A literal: {@code 5}, {@code 5u}, {@code true}, {@code (char)65}, {@code (float)[3f800000]}. */
    static final class Literal extends Node.Text {
        Literal(String s) {
            super(s);
        }
    }

    /** Expressions separated by {@code ", "}: a call's arguments, a cast's or a {@code new}'s list. */
    static final class ExprList extends Node.Sequence {
        ExprList(List<Node> items) {
            super(items);
        }
    }

    /** {@code il ... E} / {@code tl T ... E}: {@code T{a, b}}. */
    static final class InitList extends Node {
        final Node type;
        final ExprList items;

        InitList(Node type, ExprList items) {
            this.type = type;
            this.items = items;
        }

        @Override
        void left(Out o) {
            o.enter();
            if (type != null) {
                type.print(o);
            }
            o.add("{");
            items.print(o);
            o.add("}");
            o.exit();
        }

        @Override
        boolean simpleInExpression() {
            return true;
        }

        @Override
        List<Node> children() {
            return type == null ? List.of(items) : List.of(type, items);
        }
    }

    /** An operator without operands ({@code throw}). */
    static final class Nullary extends Node {
        final Operators.Op op;

        Nullary(Operators.Op op) {
            this.op = op;
        }

        @Override
        void left(Out o) {
            o.add(op.spelling());
        }
    }

    /** {@code cv T expr} or {@code cv T _ exprs E}: {@code (T)(expr)}. */
    static final class Cast extends Node {
        final Node type;
        final Node operand;

        Cast(Node type, Node operand) {
            this.type = type;
            this.operand = operand;
        }

        @Override
        void left(Out o) {
            o.enter();
            o.add("(");
            type.print(o);
            o.add(")");
            subexpr(o, operand);
            o.exit();
        }

        @Override
        List<Node> children() {
            return List.of(type, operand);
        }
    }

    /** A unary operator; {@code suffix} for the postfix {@code pp}/{@code mm} forms. */
    static final class Unary extends Node {
        final Operators.Op op;
        final Node operand;
        final boolean suffix;

        Unary(Operators.Op op, Node operand, boolean suffix) {
            this.op = op;
            this.operand = operand;
            this.suffix = suffix;
        }

        @Override
        void left(Out o) {
            o.enter();
            Node x = operand;
            String code = op.code();
            if (code.equals("ad") && x instanceof Node.Encoding e && e.name instanceof Node.Qualified
                && e.function instanceof Node.Function) {
                // the address of a qualified function prints without its parameter list
                x = e.name;
            }
            if (suffix) {
                subexpr(o, x);
                o.add(op.spelling());
            } else if (code.equals("sZ")) {
                ParamRef p = x.findPack();
                o.add(String.valueOf(p == null ? 0 : p.pack().size()));
            } else if (code.equals("sP")) {
                o.add(String.valueOf(argsLength(((ExprList) x).items)));
            } else {
                o.add(op.spelling());
                if (code.equals("gs")) {
                    x.print(o);
                } else if (code.equals("st")) {
                    o.add("(");
                    x.print(o);
                    o.add(")");
                } else {
                    subexpr(o, x);
                }
            }
            o.exit();
        }

        private static int argsLength(List<Node> args) {
            int n = 0;
            for (Node a : args) {
                if (a instanceof PackExpansion pe) {
                    ParamRef p = pe.pattern.findPack();
                    n += p == null ? 0 : p.pack().size();
                } else {
                    n++;
                }
            }
            return n;
        }

        @Override
        List<Node> children() {
            return List.of(operand);
        }
    }

    /**
     * A binary operator. {@code left} is a type for the named casts, the operator of a fold ({@link OpNode}), a
     * field name for a designator; {@code right} is the argument list of a call ({@code cl}).
     */
    static final class Binary extends Node {
        final Operators.Op op;
        final Node left;
        final Node right;

        Binary(Operators.Op op, Node left, Node right) {
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        void left(Out o) {
            o.enter();
            String code = op.code();
            if (code.equals("sc") || code.equals("dc") || code.equals("cc") || code.equals("rc")) {
                o.add(op.spelling()).add("<");
                left.print(o);
                o.add(">(");
                right.print(o);
                o.add(")");
            } else if (code.equals("fl") || code.equals("fr")) {
                int held = o.packIndex;
                o.packIndex = -1;
                String sym = ((OpNode) left).op.spelling();
                if (code.equals("fl")) {
                    o.add("(...").add(sym);
                    subexpr(o, right);
                    o.add(")");
                } else {
                    o.add("(");
                    subexpr(o, right);
                    o.add(sym).add("...)");
                }
                o.packIndex = held;
            } else if (code.equals("di") || code.equals("dx")) {
                o.add(code.equals("di") ? "." : "[");
                left.print(o);
                if (code.equals("dx")) {
                    o.add("]");
                }
                designated(o, right);
            } else {
                boolean gt = op.spelling().equals(">");
                if (gt) {
                    o.add("(");
                }
                if (code.equals("cl") && left instanceof Node.Encoding e) {
                    // a call prints the callee's name, not its parameter types
                    subexpr(o, e.name);
                } else {
                    subexpr(o, left);
                }
                if (code.equals("ix")) {
                    o.add("[");
                    right.print(o);
                    o.add("]");
                } else {
                    if (!code.equals("cl")) {
                        o.add(op.spelling());
                    }
                    subexpr(o, right);
                }
                if (gt) {
                    o.add(")");
                }
            }
            o.exit();
        }

        @Override
        List<Node> children() {
            return List.of(left, right);
        }
    }

    /** After a designator: a chained designator as it is, else {@code =value}. */
    static void designated(Node.Out o, Node value) {
        if (value instanceof Binary b && (b.op.code().equals("di") || b.op.code().equals("dx"))
            || value instanceof Trinary t && t.op.code().equals("dX")) {
            value.print(o);
        } else {
            o.add("=");
            Node.subexpr(o, value);
        }
    }

    /** A three-operand operator: {@code ?:}, a binary fold, a range designator, {@code new}. */
    static final class Trinary extends Node {
        final Operators.Op op;
        final Node first;
        final Node second;
        final Node third;

        Trinary(Operators.Op op, Node first, Node second, Node third) {
            this.op = op;
            this.first = first;
            this.second = second;
            this.third = third;
        }

        @Override
        void left(Out o) {
            o.enter();
            switch (op.code()) {
                case "qu" -> {
                    subexpr(o, first);
                    o.add(op.spelling());
                    subexpr(o, second);
                    o.add(" : ");
                    subexpr(o, third);
                }
                case "fL", "fR" -> {
                    int held = o.packIndex;
                    o.packIndex = -1;
                    String sym = ((OpNode) first).op.spelling();
                    o.add("(");
                    subexpr(o, second);
                    o.add(sym).add("...").add(sym);
                    subexpr(o, third);
                    o.add(")");
                    o.packIndex = held;
                }
                case "dX" -> {
                    o.add("[");
                    first.print(o);
                    o.add(" ... ");
                    second.print(o);
                    o.add("]");
                    designated(o, third);
                }
                default -> {
                    o.add("new ");
                    if (!((ExprList) first).items.isEmpty()) {
                        subexpr(o, first);
                        o.add(" ");
                    }
                    second.print(o);
                    if (third != null) {
                        subexpr(o, third);
                    }
                }
            }
            o.exit();
        }

        @Override
        List<Node> children() {
            List<Node> c = new ArrayList<>(List.of(first, second));
            if (third != null) {
                c.add(third);
            }
            return c;
        }
    }

    /** The operator of a fold expression, printed by its fold. */
    static final class OpNode extends Node {
        final Operators.Op op;

        OpNode(Operators.Op op) {
            this.op = op;
        }

        @Override
        void left(Out o) {
            o.add(op.asName());
        }
    }
}
