package dev.dfx.perf.trace;

/**
 * A token of a tracepoint format ({@code libtraceevent event-parse.c enum tep_event_type}).
 *
 * @param kind the token class
 * @param text the token text (for strings: without quotes, escapes kept as written)
 */
record Token(Kind kind, String text) {
    /** Token classes in libtraceevent's terms. */
    enum Kind { NONE, SPACE, NEWLINE, OP, DELIM, ITEM, DQUOTE, SQUOTE }

    static final Token END = new Token(Kind.NONE, "");

    boolean is(Kind k, String t) {
        return kind == k && text.equals(t);
    }

    boolean isOp(String t) {
        return is(Kind.OP, t);
    }

    boolean isDelim(String t) {
        return is(Kind.DELIM, t);
    }
}
