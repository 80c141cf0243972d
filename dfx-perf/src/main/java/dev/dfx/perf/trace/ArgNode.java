package dev.dfx.perf.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * A mutable print-argument node, the shape of libtraceevent's {@code struct tep_print_arg}, used while
 * parsing so that its operator rotations ({@code *left = *arg} copies) can be reproduced exactly; turned
 * into an immutable {@link PrintArg} tree afterwards. Internal to {@link ArgParser}.
 */
final class ArgNode {
    enum Kind { NULL, ATOM, FIELD, FLAGS, SYMBOL, HEX, HEX_STR, INT_ARRAY, TYPE, STRING, BITMASK, DYN_ARRAY,
        DYN_ARRAY_LEN, OP }

    Kind kind = Kind.NULL;
    String text;
    String op;
    int prio;
    ArgNode left;
    ArgNode right;
    ArgNode item;
    String delim;
    List<PrintArg.FlagSym> flags = new ArrayList<>();
    ArgNode a;
    ArgNode b;
    ArgNode c;

    /** C struct assignment: {@code *this = *o}. */
    void copyFrom(ArgNode o) {
        kind = o.kind;
        text = o.text;
        op = o.op;
        prio = o.prio;
        left = o.left;
        right = o.right;
        item = o.item;
        delim = o.delim;
        flags = o.flags;
        a = o.a;
        b = o.b;
        c = o.c;
    }

    ArgNode copy() {
        ArgNode n = new ArgNode();
        n.copyFrom(this);
        return n;
    }
}
