package dev.dfx.perf.trace;

import java.util.List;

/**
 * One argument of a tracepoint {@code print fmt}, as libtraceevent's {@code struct tep_print_arg}
 * represents it: constants, {@code REC->field}, casts, operators and the {@code __print_*} / {@code __get_*}
 * helpers. Immutable trees built by {@link ArgParser}.
 */
sealed interface PrintArg {
    /** An empty operand (the left side of a unary operator). */
    record Null() implements PrintArg {
    }

    /** A literal: number, identifier or string (quotes removed); {@code value} is its {@code strtoull}. */
    record Atom(String text, long value) implements PrintArg {
        Atom(String text) {
            this(text, CNumbers.strtoull(text));
        }
    }

    /** {@code REC->name}; {@code field} is null when the format has no such field. */
    record Field(String name, FormatField field) implements PrintArg {
    }

    /** {@code (type) item}; {@code mask} and {@code pointerMask} are the casts' effect precomputed. */
    record Cast(String type, PrintArg item, long mask, long pointerMask) implements PrintArg {
        Cast(String type, PrintArg item) {
            this(type, item, Eval.castMask(type, false), Eval.castMask(type, true));
        }
    }

    /** Binary or unary operator ({@code left} is {@link Null} for unary), {@code "["} for indexing, {@code "?"} whose right is a {@code ":"} op. */
    record Op(String op, PrintArg left, PrintArg right, Eval.Operator operator) implements PrintArg {
        Op(String op, PrintArg left, PrintArg right) {
            this(op, left, right, Eval.Operator.of(op));
        }
    }

    /**
     * One {@code { value, "name" }} entry of {@code __print_flags} / {@code __print_symbolic}: {@code value} as
     * text and as libtraceevent's {@code eval_flag} number (-1 for names it cannot evaluate).
     */
    record FlagSym(String value, String name, long number) {
        FlagSym(String value, String name) {
            this(value, name, EventPrinter.evalFlag(value));
        }
    }

    /** {@code __print_flags(field, delim, {value, name}...)}. */
    record Flags(PrintArg field, String delim, List<FlagSym> flags) implements PrintArg {
    }

    /** {@code __print_symbolic(field, {value, name}...)}. */
    record Symbolic(PrintArg field, List<FlagSym> symbols) implements PrintArg {
    }

    /** {@code __print_hex(field, size)} ({@code spaced}) or {@code __print_hex_str}. */
    record Hex(PrintArg field, PrintArg size, boolean spaced) implements PrintArg {
    }

    /** {@code __print_array(field, count, elementSize)}. */
    record IntArray(PrintArg field, PrintArg count, PrintArg elementSize) implements PrintArg {
    }

    /** {@code __get_str(name)} / {@code __get_rel_str(name)}. */
    record Str(String name, FormatField field) implements PrintArg {
    }

    /** {@code __get_bitmask(name)}. */
    record Bitmask(String name, FormatField field) implements PrintArg {
    }

    /** {@code __get_dynamic_array(name)}: the address of the dynamic data. */
    record DynArray(FormatField field) implements PrintArg {
    }

    /** {@code __get_dynamic_array_len(name)}: its length in bytes. */
    record DynArrayLen(FormatField field) implements PrintArg {
    }
}
