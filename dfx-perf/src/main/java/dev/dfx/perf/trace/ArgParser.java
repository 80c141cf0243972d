package dev.dfx.perf.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Parses the argument list of a {@code print fmt} the way libtraceevent does ({@code process_arg},
 * {@code process_op}, {@code process_paren}, {@code process_cond}, {@code process_flags}...), including its
 * quirk of re-associating an operator with a parenthesized operand of lower precedence: in
 * {@code REC->f & (A | B)} the parentheses are not kept and the expression evaluates as
 * {@code (REC->f & A) | B}, which is what perf prints. Not thread-safe.
 */
final class ArgParser {
    private final Tokenizer tok;
    private final Function<String, FormatField> fields;
    /**
     * libtraceevent's {@code is_flag_field}/{@code is_symbolic_field}: set by {@code __print_flags} and
     * {@code __print_symbolic}, consumed by the next {@code REC->field}, whose field it then looks up and marks.
     */
    private boolean flagField;

    ArgParser(Tokenizer tok, Function<String, FormatField> fields) {
        this.tok = tok;
        this.fields = fields;
    }

    /** {@code event_read_print_args}: arguments separated by commas up to the end of the text. */
    List<PrintArg> parseArgs() throws FormatException {
        List<PrintArg> args = new ArrayList<>();
        Token t = new Token(Token.Kind.NONE, "");
        do {
            if (t.kind() == Token.Kind.NEWLINE) {
                t = tok.next();
                continue;
            }
            ArgNode arg = new ArgNode();
            t = processArg(arg);
            if (t.kind() == Token.Kind.OP) {
                t = processOp(arg, t);
            }
            args.add(convert(arg));
            if (t.isDelim(",")) {
                continue;
            }
            // anything but a comma ends the list, and libtraceevent ignores what follows (the end of the text, a
            // newline, a character it cannot tokenize, a stray delimiter)
            break;
        } while (t.kind() != Token.Kind.NONE);
        return args;
    }

    private Token processArg(ArgNode arg) throws FormatException {
        return processArgToken(arg, tok.nextKeepNewline());
    }

    private Token processArgToken(ArgNode arg, Token t) throws FormatException {
        switch (t.kind()) {
            case ITEM: {
                if (t.text().equals("REC")) {
                    return processEntry(arg);
                }
                StringBuilder atom = new StringBuilder(t.text());
                Token n = tok.next();
                if (n.isDelim("(")) {
                    return processFunction(arg, t.text());
                }
                while (n.kind() == Token.Kind.ITEM) {
                    atom.append(' ').append(n.text());
                    n = tok.next();
                }
                arg.kind = ArgNode.Kind.ATOM;
                arg.text = atom.toString();
                return n;
            }
            case DQUOTE:
            case SQUOTE:
                arg.kind = ArgNode.Kind.ATOM;
                arg.text = t.text();
                return tok.next();
            case DELIM:
                if (t.text().equals("(")) {
                    return processParen(arg);
                }
                // a ')' or ',' here: treated as an operator, which then fails as libtraceevent's does
                arg.kind = ArgNode.Kind.OP;
                arg.op = t.text();
                arg.left = null;
                return processOp(arg, t);
            case OP:
                arg.kind = ArgNode.Kind.OP;
                arg.op = t.text();
                arg.left = null;
                return processOp(arg, t);
            default:
                throw new FormatException("unexpected token '" + t.text() + "'");
        }
    }

    private Token processEntry(ArgNode arg) throws FormatException {
        Token arrow = tok.next();
        if (!arrow.isOp("->")) {
            throw new FormatException("expected '->' after REC");
        }
        Token name = tok.next();
        if (name.kind() != Token.Kind.ITEM) {
            throw new FormatException("expected a field name after REC->");
        }
        arg.kind = ArgNode.Kind.FIELD;
        arg.text = name.text();
        if (flagField) {
            flagField = false;
            if (fields.apply(name.text()) == null) {
                throw new NullFieldException(name.text());
            }
        }
        return tok.nextKeepNewline();
    }

    private Token processParen(ArgNode arg) throws FormatException {
        Tokenizer probe = new Tokenizer(tok.rest());
        if (probe.next().is(Token.Kind.ITEM, "REC") && probe.next().isDelim(")") && probe.next().isOp("->")) {
            tok.next();
            tok.next();
            return processEntry(arg); // "(REC)->field"
        }
        Token t = processArg(arg);
        if (t.kind() == Token.Kind.OP) {
            t = processOp(arg, t);
        }
        if (!t.isDelim(")")) {
            throw new FormatException("expected ')', found '" + t.text() + "'");
        }
        t = tok.next();
        boolean itemType = t.kind() == Token.Kind.ITEM || t.kind() == Token.Kind.DQUOTE
            || t.kind() == Token.Kind.SQUOTE;
        if (itemType || t.isDelim("(")) {
            if (arg.kind != ArgNode.Kind.ATOM) {
                throw new FormatException("previous needed to be an atom for a cast");
            }
            ArgNode item = new ArgNode();
            String type = arg.text;
            arg.kind = ArgNode.Kind.TYPE;
            arg.text = type;
            arg.item = item;
            return processArgToken(item, t);
        }
        return t;
    }

    /** libtraceevent {@code process_op}; {@code t} is the operator token. */
    private Token processOp(ArgNode arg, Token t) throws FormatException {
        String token = t.text();
        ArgNode right = null;
        Token next;
        if (arg.kind == ArgNode.Kind.OP && arg.left == null) {
            if (token.length() != 1 || "~!+-".indexOf(token.charAt(0)) < 0) {
                throw new FormatException("bad op token " + token);
            }
            ArgNode left = new ArgNode();
            arg.left = left;
            right = new ArgNode();
            arg.right = right;
            next = processArg(right);
        } else if (token.equals("?")) {
            pushDown(arg, token);
            next = processCond(arg);
        } else if (isBinary(token)) {
            ArgNode left = pushDown(arg, token);
            arg.prio = (left.kind == ArgNode.Kind.NULL) ? 0 : prio(token);
            Token n = tok.next();
            if (token.equals("*") && n.isDelim(")")) {
                if (left.kind != ArgNode.Kind.ATOM) {
                    throw new FormatException("bad pointer type");
                }
                left.text = left.text + " *";
                arg.copyFrom(left);
                return n;
            }
            right = new ArgNode();
            next = processArgToken(right, n);
            if (right.kind == ArgNode.Kind.OP && prio(arg.op) < prio(right.op)) {
                // rotate ops according to the priority, parenthesized or not (libtraceevent behaviour)
                arg.right = right.left;
                ArgNode tmp = arg.copy();
                arg.copyFrom(right);
                right.copyFrom(tmp);
                arg.left = right;
            } else {
                arg.right = right;
            }
        } else if (token.equals("[")) {
            pushDown(arg, token);
            ArgNode index = new ArgNode();
            Token close = processArg(index);
            if (!close.isOp("]")) {
                throw new FormatException("expected ']'");
            }
            arg.right = index;
            next = tok.next();
        } else {
            throw new FormatException("unknown op '" + token + "'");
        }
        if (next.kind() == Token.Kind.OP && !next.text().equals(":")) {
            int p = prio(next.text());
            if (p > arg.prio) {
                return processOp(arg, next);
            }
            return processOp(right, next);
        }
        return next;
    }

    /** {@code *left = *arg; arg becomes op(left, null)}: the operand moves down as the left side of {@code op}. */
    private static ArgNode pushDown(ArgNode arg, String op) {
        ArgNode left = arg.copy();
        arg.kind = ArgNode.Kind.OP;
        arg.op = op;
        arg.left = left;
        arg.right = null;
        arg.prio = 0;
        return left;
    }

    private Token processCond(ArgNode top) throws FormatException {
        ArgNode arg = new ArgNode();
        ArgNode left = new ArgNode();
        ArgNode right = new ArgNode();
        arg.kind = ArgNode.Kind.OP;
        arg.left = left;
        arg.right = right;
        Token t = processArg(left);
        while (t.kind() == Token.Kind.OP && !t.text().equals(":")) {
            t = processOp(left, t);
        }
        if (!t.isOp(":")) {
            throw new FormatException("expected ':' in a conditional");
        }
        arg.op = ":";
        Token n = processArg(right);
        top.right = arg;
        return n;
    }

    private Token processFunction(ArgNode arg, String name) throws FormatException {
        switch (name) {
            case "__print_flags":
                flagField = true;
                return processFlags(arg, true);
            case "__print_symbolic":
                flagField = true;
                return processFlags(arg, false);
            case "__print_hex", "__print_hex_str": {
                arg.kind = name.equals("__print_hex") ? ArgNode.Kind.HEX : ArgNode.Kind.HEX_STR;
                arg.a = delimited(",");
                arg.b = delimited(")");
                return tok.next();
            }
            case "__print_array": {
                arg.kind = ArgNode.Kind.INT_ARRAY;
                arg.a = delimited(",");
                arg.b = delimited(",");
                arg.c = delimited(")");
                return tok.next();
            }
            case "__get_str", "__get_rel_str", "__get_bitmask", "__get_rel_bitmask": {
                arg.kind = name.contains("bitmask") ? ArgNode.Kind.BITMASK : ArgNode.Kind.STRING;
                arg.text = fieldNameThenClose();
                return tok.nextKeepNewline();
            }
            case "__get_dynamic_array", "__get_rel_dynamic_array": {
                arg.kind = ArgNode.Kind.DYN_ARRAY;
                arg.text = requireField(fieldNameThenClose());
                Token n = tok.next();
                if (!n.isOp("[")) {
                    return n;
                }
                ArgNode dropped = new ArgNode();
                Token close = processArg(dropped); // libtraceevent parses the index and drops it
                if (!close.isOp("]")) {
                    throw new FormatException("expected ']'");
                }
                return tok.next();
            }
            case "__get_dynamic_array_len", "__get_rel_dynamic_array_len": {
                arg.kind = ArgNode.Kind.DYN_ARRAY_LEN;
                arg.text = requireField(fieldNameThenClose());
                return tok.nextKeepNewline();
            }
            case "__builtin_expect": {
                Token t = processArg(arg);
                if (t.kind() == Token.Kind.OP) {
                    t = processOp(arg, t);
                }
                if (!t.isDelim(",")) {
                    throw new FormatException("expected ',' in __builtin_expect");
                }
                if (tok.next().kind() != Token.Kind.ITEM || !tok.next().isDelim(")")) {
                    throw new FormatException("bad __builtin_expect");
                }
                return tok.next();
            }
            default:
                throw new FormatException("function " + name + " not defined");
        }
    }

    private Token processFlags(ArgNode arg, boolean withDelim) throws FormatException {
        arg.kind = withDelim ? ArgNode.Kind.FLAGS : ArgNode.Kind.SYMBOL;
        ArgNode field = new ArgNode();
        Token t = processArg(field);
        while (t.kind() == Token.Kind.OP) {
            t = processOp(field, t);
        }
        if (!t.isDelim(",")) {
            throw new FormatException("expected ',' after the flags field");
        }
        arg.a = field;
        if (withDelim) {
            t = tok.next();
            if (t.kind() == Token.Kind.ITEM || t.kind() == Token.Kind.DQUOTE || t.kind() == Token.Kind.SQUOTE) {
                arg.delim = t.text();
                t = tok.next();
            }
            if (!t.isDelim(",")) {
                throw new FormatException("expected ',' after the flags delimiter");
            }
        }
        t = processFields(arg.flags);
        if (!t.isDelim(")")) {
            throw new FormatException("expected ')' after the flag list");
        }
        return tok.next();
    }

    /** {@code process_fields}: {@code { value, "name" }} entries separated by commas. */
    private Token processFields(List<PrintArg.FlagSym> list) throws FormatException {
        Token t;
        do {
            t = tok.next();
            if (!t.isOp("{")) {
                break;
            }
            ArgNode value = new ArgNode();
            t = processArg(value);
            if (t.kind() == Token.Kind.OP) {
                t = processOp(value, t);
            }
            if (!t.isDelim(",")) {
                throw new FormatException("expected ',' in a flag entry");
            }
            String v = ConstEval.text(convert(value));
            ArgNode str = new ArgNode();
            t = processArg(str);
            if (!t.isOp("}")) {
                throw new FormatException("expected '}' in a flag entry");
            }
            String s = ConstEval.text(convert(str));
            if (v == null || s == null) {
                throw new FormatException("flag entry is not a constant");
            }
            list.add(new PrintArg.FlagSym(v, s));
            t = tok.next();
        } while (t.isDelim(","));
        return t;
    }

    /** {@code alloc_and_process_delim}: one primary argument followed by {@code delim}. */
    private ArgNode delimited(String delim) throws FormatException {
        ArgNode n = new ArgNode();
        Token t = processArg(n);
        if (!t.isDelim(delim)) {
            throw new FormatException("expected '" + delim + "'");
        }
        return n;
    }

    private String fieldNameThenClose() throws FormatException {
        Token name = tok.next();
        if (name.kind() != Token.Kind.ITEM || !tok.next().isDelim(")")) {
            throw new FormatException("expected a field name and ')'");
        }
        return name.text();
    }

    private String requireField(String name) throws FormatException {
        if (fields.apply(name) == null) {
            throw new FormatException("field " + name + " not found");
        }
        return name;
    }

    private PrintArg convert(ArgNode n) throws FormatException {
        if (n == null) {
            return new PrintArg.Null();
        }
        return switch (n.kind) {
            case NULL -> new PrintArg.Null();
            case ATOM -> new PrintArg.Atom(n.text);
            case FIELD -> new PrintArg.Field(n.text, fields.apply(n.text));
            case TYPE -> new PrintArg.Cast(n.text, convert(n.item));
            case OP -> new PrintArg.Op(n.op, convert(n.left), convert(n.right));
            case FLAGS -> new PrintArg.Flags(convert(n.a), n.delim, List.copyOf(n.flags));
            case SYMBOL -> new PrintArg.Symbolic(convert(n.a), List.copyOf(n.flags));
            case HEX, HEX_STR -> new PrintArg.Hex(convert(n.a), convert(n.b), n.kind == ArgNode.Kind.HEX);
            case INT_ARRAY -> new PrintArg.IntArray(convert(n.a), convert(n.b), convert(n.c));
            case STRING -> new PrintArg.Str(n.text, fields.apply(n.text));
            case BITMASK -> new PrintArg.Bitmask(n.text, fields.apply(n.text));
            case DYN_ARRAY -> new PrintArg.DynArray(fields.apply(n.text));
            case DYN_ARRAY_LEN -> new PrintArg.DynArrayLen(fields.apply(n.text));
        };
    }

    private static boolean isBinary(String t) {
        return switch (t) {
            case ">>", "<<", "&", "|", "&&", "||", "-", "+", "*", "^", "/", "%", "<", ">", "<=", ">=", "==", "!=" ->
                true;
            default -> false;
        };
    }

    /** libtraceevent {@code get_op_prio}. */
    static int prio(String op) throws FormatException {
        int p = switch (op) {
            case "~", "!" -> 4;
            case "*", "/", "%" -> 6;
            case "+", "-" -> 7;
            case "<<", ">>" -> 8;
            case "<", ">", "<=", ">=" -> 9;
            case "==", "!=" -> 10;
            case "&" -> 11;
            case "^" -> 12;
            case "|" -> 13;
            case "&&" -> 14;
            case "||" -> 15;
            case "?" -> 16;
            case "++", "--" -> 3;
            default -> -1;
        };
        if (p < 0) {
            throw new FormatException("unknown op '" + op + "'");
        }
        return p;
    }
}
