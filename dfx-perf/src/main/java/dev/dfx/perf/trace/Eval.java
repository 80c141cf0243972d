package dev.dfx.perf.trace;

/**
 * Numeric evaluation of print arguments over one raw record, as libtraceevent's {@code eval_num_arg}:
 * unsigned 64-bit arithmetic, fields read unsigned at their size, casts to {@code u8/u16/u32/int/short/char}
 * masking the value. Stateless.
 */
final class Eval {
    private Eval() {
    }

    static long num(PrintArg a, RawData d) {
        if (a instanceof PrintArg.Atom atom) {
            return atom.value();
        }
        if (a instanceof PrintArg.Field f) {
            return f.field() == null ? 0 : d.number(f.field().offset(), f.field().size());
        }
        if (a instanceof PrintArg.Cast c) {
            return num(c.item(), d) & c.mask();
        }
        if (a instanceof PrintArg.Op op) {
            return op(op, d);
        }
        if (a instanceof PrintArg.DynArrayLen l) {
            return dynamic(l.field(), d)[1];
        }
        if (a instanceof PrintArg.DynArray arr) {
            return dynamic(arr.field(), d)[0];
        }
        return 0;
    }

    /**
     * The operators {@code eval_num_arg} knows, resolved once when a format is parsed: evaluating a record then
     * switches on an enum instead of comparing strings.
     */
    enum Operator {
        INDEX("["), COND("?"), NOT("!"), NE("!="), COMPL("~"), OR("|"), LOR("||"), AND("&"), LAND("&&"), XOR("^"),
        LT("<"), SHL("<<"), LE("<="), GT(">"), SHR(">>"), GE(">="), EQ("=="), SUB("-"), ADD("+"), DIV("/"),
        MOD("%"), MUL("*"), OTHER("");

        private final String text;

        Operator(String text) {
            this.text = text;
        }

        /** @return the operator written {@code op}, or {@link #OTHER} (evaluates to 0, as libtraceevent) */
        static Operator of(String op) {
            for (Operator o : values()) {
                if (o.text.equals(op)) {
                    return o;
                }
            }
            return OTHER;
        }
    }

    private static long op(PrintArg.Op op, RawData d) {
        Operator o = op.operator();
        if (o == Operator.INDEX) {
            return index(op, d);
        }
        if (o == Operator.COND) {
            PrintArg.Op branches = (PrintArg.Op) op.right();
            return num(op.left(), d) != 0 ? num(branches.left(), d) : num(branches.right(), d);
        }
        long l = num(op.left(), d);
        long r = num(op.right(), d);
        return switch (o) {
            case NOT -> r == 0 ? 1 : 0;
            case NE -> l != r ? 1 : 0;
            case COMPL -> ~r;
            case OR -> l | r;
            case LOR -> (l != 0 || r != 0) ? 1 : 0;
            case AND -> l & r;
            case LAND -> (l != 0 && r != 0) ? 1 : 0;
            case XOR -> l ^ r;
            case LT -> Long.compareUnsigned(l, r) < 0 ? 1 : 0;
            case SHL -> l << r;
            case LE -> Long.compareUnsigned(l, r) <= 0 ? 1 : 0;
            case GT -> Long.compareUnsigned(l, r) > 0 ? 1 : 0;
            case SHR -> l >>> r;
            case GE -> Long.compareUnsigned(l, r) >= 0 ? 1 : 0;
            case EQ -> l == r ? 1 : 0;
            case SUB -> l - r;
            case ADD -> l + r;
            case DIV -> r == 0 ? 0 : Long.divideUnsigned(l, r);
            case MOD -> r == 0 ? 0 : Long.remainderUnsigned(l, r);
            case MUL -> l * r;
            default -> 0;
        };
    }

    /** {@code REC->array[i]} and {@code __get_dynamic_array(x)[i]}, reading one element. */
    private static long index(PrintArg.Op op, RawData d) {
        long right = num(op.right(), d);
        PrintArg left = op.left();
        PrintArg.Cast typearg = null;
        while (left instanceof PrintArg.Cast c) {
            if (typearg == null) {
                typearg = c;
            }
            left = c.item();
        }
        int fieldSize = 8;
        long offset;
        if (left instanceof PrintArg.DynArray arr) {
            offset = dynamic(arr.field(), d)[0] + right;
            if (arr.field().elementSize() != 0) {
                fieldSize = arr.field().elementSize();
            }
        } else if (left instanceof PrintArg.Field f && f.field() != null) {
            fieldSize = f.field().elementSize();
            offset = f.field().offset() + right * f.field().elementSize();
        } else {
            return num(op.left(), d) + num(op.right(), d);
        }
        long val = d.number((int) offset, fieldSize);
        return typearg != null ? val & typearg.pointerMask() : val;
    }

    /**
     * {@code dynamic_offset_field}: the data offset and length of a {@code __data_loc}/{@code __rel_loc} field.
     *
     * @return {offset, length}
     */
    static long[] dynamic(FormatField f, RawData d) {
        long v = d.number(f.offset(), f.size());
        long off = v & 0xffff;
        long len = (v >>> 16) & 0xffff;
        if (f.relative()) {
            off += f.offset() + f.size();
        }
        return new long[] {off, len};
    }

    /** @return the mask {@link #castType} applies for {@code type} (all ones when it keeps the value) */
    static long castMask(String type, boolean pointer) {
        return castType(-1L, type, pointer);
    }

    /** libtraceevent {@code eval_type_str}. */
    static long castType(long val, String type, boolean pointer) {
        if (type.length() < 2) {
            return val;
        }
        if (pointer) {
            if (!type.endsWith("*")) {
                return val;
            }
            return castType(val, type.substring(0, type.length() - 2), false);
        }
        if (type.endsWith("*") || type.startsWith("struct")) {
            return val;
        }
        switch (type) {
            case "u8", "s8":
                return val & 0xff;
            case "u16", "s16":
                return val & 0xffff;
            case "u32", "s32":
                return val & 0xffff_ffffL;
            default:
                break;
        }
        String t = type.startsWith("unsigned ") ? type.substring(9) : type;
        return switch (t) {
            case "char" -> val & 0xff;
            case "short" -> val & 0xffff;
            case "int" -> val & 0xffff_ffffL;
            default -> val;
        };
    }
}
