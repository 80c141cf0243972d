package dev.dfx.perf.trace;

/**
 * Parse-time evaluation of {@code __print_flags}/{@code __print_symbolic} keys and names as libtraceevent's
 * {@code arg_eval}/{@code arg_num_eval} do: an atom stays its text (so an enum name such as
 * {@code HRTIMER_MODE_ABS} stays a name that later matches nothing), an operator expression over
 * numbers becomes its signed decimal value. Stateless.
 */
final class ConstEval {
    private ConstEval() {
    }

    /** @return the key text, or {@code null} when libtraceevent could not evaluate it */
    static String text(PrintArg a) {
        if (a instanceof PrintArg.Atom atom) {
            return atom.text();
        }
        if (a instanceof PrintArg.Cast c) {
            return text(c.item());
        }
        if (a instanceof PrintArg.Op) {
            Long v = num(a);
            return v == null ? null : Long.toString(v);
        }
        return null;
    }

    private static Long num(PrintArg a) {
        if (a instanceof PrintArg.Atom atom) {
            return CNumbers.strtoll(atom.text());
        }
        if (a instanceof PrintArg.Cast c) {
            Long v = num(c.item());
            return v == null ? null : Eval.castType(v, c.type(), false);
        }
        if (a instanceof PrintArg.Null) {
            return null;
        }
        if (!(a instanceof PrintArg.Op op)) {
            return null;
        }
        String o = op.op();
        boolean unary = op.left() instanceof PrintArg.Null;
        Long r = num(op.right());
        if (r == null) {
            return null;
        }
        if (unary) {
            return switch (o) {
                case "-" -> -r;
                case "+" -> r;
                case "!" -> r == 0 ? 1L : 0L;
                case "~" -> ~r;
                default -> null;
            };
        }
        Long l = num(op.left());
        if (l == null) {
            return null;
        }
        return switch (o) {
            case "|" -> l | r;
            case "||" -> (l != 0 || r != 0) ? 1L : 0L;
            case "&" -> l & r;
            case "&&" -> (l != 0 && r != 0) ? 1L : 0L;
            case "<" -> l < r ? 1L : 0L;
            case "<<" -> l << r;
            case "<=" -> l <= r ? 1L : 0L;
            case ">" -> l > r ? 1L : 0L;
            case ">>" -> l >> r;
            case ">=" -> l >= r ? 1L : 0L;
            case "==" -> l.equals(r) ? 1L : 0L;
            case "!=" -> !l.equals(r) ? 1L : 0L;
            case "-" -> l - r;
            case "+" -> l + r;
            default -> null;
        };
    }
}
