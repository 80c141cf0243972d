package dev.dfx.perf.trace;

import dev.dfx.perf.text.TextSink;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Prints tracepoint records through their print formats straight into a {@link TextSink}: the same bytes
 * {@link EventPrinter#print} appends (the {@code trace} column of {@code perf script}), without a builder or a String
 * per record for the common pieces. Each format is turned once, at its first record, into steps: literal text; the
 * {@code %d %i %u %x} conversions without flags, and {@code %Nd} / {@code %0Nd} of non-negative values, written as
 * digits; {@code %s} of a char-array field or of {@code __get_str}, copied from the raw bytes up to their NUL;
 * {@code %s} of a ternary, {@code __print_flags} or {@code __print_symbolic}, whose text depends on numbers only and
 * is made once per value (a {@link Choice}). Every other piece (pointers, arrays, padded fields, a negative
 * zero-padded number) goes through the {@link EventPrinter} into a scratch builder, and so does a format that failed
 * to parse. Operator subexpressions over constants only (such as the task-state masks of {@code sched_switch},
 * written out as sums of flag values) are evaluated once when the steps are made, never per record. Not
 * thread-safe: one per pass.
 */
public final class TraceTextWriter {
    /** The plan of a format that failed to parse: printed whole by the {@link EventPrinter}. */
    private static final Step[] WHOLE = new Step[0];

    private final EventPrinter printer;
    private final StringBuilder scratch = new StringBuilder(64);
    /** Plans by format id (ids are 16-bit {@code common_type} values), each beside the format it was made for. */
    private Step[][] plans = new Step[64][];
    private EventFormat[] planned = new EventFormat[64];
    /** Plans of formats whose id is negative or shared with another format of the same tracing data. */
    private final Map<EventFormat, Step[]> others = new IdentityHashMap<>();

    /** @param printer prints what the steps do not (and gives the kernel's {@code sizeof(long)}) */
    public TraceTextWriter(EventPrinter printer) {
        this.printer = printer;
    }

    /**
     * Writes the record's text as {@link EventPrinter#print} appends it, one byte per char.
     *
     * @param ev the record's format
     * @param d  the record's raw data
     * @param out where the text goes
     */
    public void print(EventFormat ev, RawData d, TextSink out) {
        int id = ev.id();
        Step[] plan = id >= 0 && id < planned.length && planned[id] == ev ? plans[id] : planOf(ev);
        if (plan == WHOLE) {
            scratch.setLength(0);
            printer.print(ev, d, scratch);
            out.put(scratch);
            return;
        }
        for (Step s : plan) {
            step(s, d, out);
        }
    }

    private Step[] planOf(EventFormat ev) {
        int id = ev.id();
        if (id >= 0 && id < 1 << 16 && (id >= planned.length || planned[id] == null)) {
            if (id >= planned.length) {
                int n = Math.max(id + 1, 2 * planned.length);
                plans = Arrays.copyOf(plans, n);
                planned = Arrays.copyOf(planned, n);
            }
            plans[id] = planFor(ev);
            planned[id] = ev;
            return plans[id];
        }
        return others.computeIfAbsent(ev, this::planFor);
    }

    private Step[] planFor(EventFormat ev) {
        return ev.failed() ? WHOLE : plan(ev.printFormat(), printer.longSize());
    }

    private void step(Step s, RawData d, TextSink out) {
        switch (s.kind) {
            case Step.LITERAL -> out.put(s.segment.text());
            case Step.SIGNED, Step.UNSIGNED -> {
                long v = Eval.num(s.segment.arg(), d);
                long n = s.kind == Step.SIGNED ? (v << s.shift) >> s.shift : v & s.mask;
                if (n < 0 && (s.kind == Step.UNSIGNED || s.zeroPad)) {
                    other(s, d, out); // beyond a long's sign, or glibc's sign before the zeros
                } else if (s.width <= 0) {
                    out.dec(n);
                } else if (s.zeroPad) {
                    out.decZero(n, s.width);
                } else {
                    out.dec(n, s.width);
                }
            }
            case Step.HEX -> out.hex(Eval.num(s.segment.arg(), d) & s.mask, 0);
            case Step.CHARS -> {
                FormatField f = s.field;
                cString(d, f.offset(), f.size() != 0 ? f.size() : d.size() - f.offset(), out);
            }
            case Step.DYNAMIC_STRING -> {
                FormatField f = s.field;
                long loc = d.number(f.offset(), f.size());
                long off = loc & 0xffff;
                if (f.relative()) {
                    off += f.offset() + f.size();
                }
                if ((loc >>> 16 & 0xffff) != 0) { // zero-length dynamic strings print nothing
                    cString(d, (int) off, Integer.MAX_VALUE, out);
                }
            }
            case Step.CHOICE -> {
                Choice c = s.choice;
                while (c.text == null && c.leaf == null) {
                    c = Eval.num(c.value, d) != 0 ? c.yes : c.no;
                }
                out.put(c.text != null ? c.text : c.textOf(Eval.num(c.value, d), d, printer, scratch));
            }
            default -> other(s, d, out);
        }
    }

    private void other(Step s, RawData d, TextSink out) {
        scratch.setLength(0);
        printer.segment(s.segment, d, scratch);
        out.put(scratch);
    }

    /** {@link RawData#appendCString}, into the sink. */
    private static void cString(RawData d, int off, int max, TextSink out) {
        if (off < 0 || off >= d.size()) {
            return;
        }
        long at = d.base() + off;
        long end = Math.min(at + Math.min(max, d.size() - off), d.seg().byteSize());
        if (end > at) {
            out.putCString(d.seg(), at, (int) (end - at));
        }
    }

    /** @return the steps of {@code format}, for a kernel whose {@code long} is {@code longSize} bytes */
    static Step[] plan(PrintFormat format, int longSize) {
        return format.segments().stream().map(s -> step(s, longSize)).toArray(Step[]::new);
    }

    private static Step step(Segment s, int longSize) {
        CFormat f = s.format();
        return switch (s.kind()) {
            case LITERAL -> new Step(Step.LITERAL, s, 0);
            case DIGIT -> {
                Segment folded = withArgs(s, foldNumber(s.arg()), s.lenArg());
                boolean simple = s.lenArg() == null && !f.left && !f.plus && !f.space && !f.alt && f.precision < 0
                    && !f.starWidth && !f.starPrecision;
                int bits = switch (s.ls()) {
                    case -2 -> 8;
                    case -1 -> 16;
                    case 0 -> 32;
                    default -> 64;
                };
                int kind = !simple ? Step.OTHER : switch (f.conv) {
                    case 'd', 'i' -> Step.SIGNED;
                    case 'u' -> Step.UNSIGNED;
                    case 'x' -> f.plain ? Step.HEX : Step.OTHER;
                    default -> Step.OTHER;
                };
                yield new Step(kind, folded, bits);
            }
            case STRING -> {
                PrintArg a = s.arg();
                boolean plain = f.plain && s.lenArg() == null;
                if (plain && a instanceof PrintArg.Field fa && fa.field() != null
                    && (fa.field().array() || fa.field().size() != longSize)) {
                    yield new Step(Step.CHARS, s, 0, fa.field());
                }
                if (plain && a instanceof PrintArg.Str str && str.field() != null) {
                    yield new Step(Step.DYNAMIC_STRING, s, 0, str.field());
                }
                PrintArg folded = foldString(a);
                Choice c = s.lenArg() == null ? choice(folded, s) : null;
                if (c != null) {
                    yield new Step(Step.CHOICE, s, 0, null, c);
                }
                yield new Step(Step.OTHER, withArgs(s, folded, s.lenArg() == null ? null : foldNumber(s.lenArg())), 0);
            }
            default -> new Step(Step.OTHER, s, 0); // pointers: their printing looks at the argument's shape
        };
    }

    /**
     * @return the text of {@code %s} of {@code a} as a choice among texts that depend on numbers only (constant text,
     *         a ternary over such texts, {@code __print_flags} or {@code __print_symbolic}), or {@code null} when
     *         {@code a} is not one
     */
    private static Choice choice(PrintArg a, Segment s) {
        if (a instanceof PrintArg.Atom atom) {
            return new Choice(s.format().formatString(atom.text(), -1), null, null, null, null);
        }
        if (a instanceof PrintArg.Op op && op.operator() == Eval.Operator.COND
            && op.right() instanceof PrintArg.Op branches) {
            Choice yes = choice(branches.left(), s);
            Choice no = choice(branches.right(), s);
            return yes == null || no == null ? null : new Choice(null, op.left(), yes, no, null);
        }
        if (a instanceof PrintArg.Flags fl) {
            return new Choice(null, fl.field(), null, null, withArgs(s, a, null));
        }
        if (a instanceof PrintArg.Symbolic sy) {
            return new Choice(null, sy.field(), null, null, withArgs(s, a, null));
        }
        return null;
    }

    private static Segment withArgs(Segment s, PrintArg arg, PrintArg lenArg) {
        return new Segment(s.kind(), s.text(), s.format(), s.ls(), arg, lenArg);
    }

    /**
     * @return {@code a}, evaluated as a number ({@link Eval#num}), with each operator or cast over constants only
     *         replaced by its value: the same number for every record
     */
    static PrintArg foldNumber(PrintArg a) {
        if (a instanceof PrintArg.Cast c) {
            PrintArg item = foldNumber(c.item());
            return item instanceof PrintArg.Atom ? constant(Eval.num(new PrintArg.Cast(c.type(), item, c.mask(),
                c.pointerMask()), null)) : new PrintArg.Cast(c.type(), item, c.mask(), c.pointerMask());
        }
        if (!(a instanceof PrintArg.Op op)) {
            return a;
        }
        Eval.Operator o = op.operator();
        if (o == Eval.Operator.COND && op.right() instanceof PrintArg.Op branches) {
            return new PrintArg.Op(op.op(), foldNumber(op.left()), new PrintArg.Op(branches.op(),
                foldNumber(branches.left()), foldNumber(branches.right()), branches.operator()), o);
        }
        if (o == Eval.Operator.INDEX || o == Eval.Operator.COND || o == Eval.Operator.OTHER) {
            return a; // an index reads the shape of its operand; a lone ':' belongs to its '?'
        }
        PrintArg l = foldNumber(op.left());
        PrintArg r = foldNumber(op.right());
        PrintArg folded = new PrintArg.Op(op.op(), l, r, o);
        return constantOperand(l) && constantOperand(r) ? constant(Eval.num(folded, null)) : folded;
    }

    /** @return {@code a} printed as a string ({@code EventPrinter.str}), with its numeric parts folded */
    private static PrintArg foldString(PrintArg a) {
        if (a instanceof PrintArg.Flags fl) {
            return new PrintArg.Flags(foldNumber(fl.field()), fl.delim(), fl.flags());
        }
        if (a instanceof PrintArg.Symbolic sy) {
            return new PrintArg.Symbolic(foldNumber(sy.field()), sy.symbols());
        }
        if (a instanceof PrintArg.Op op && op.operator() == Eval.Operator.COND
            && op.right() instanceof PrintArg.Op branches) {
            return new PrintArg.Op(op.op(), foldNumber(op.left()), new PrintArg.Op(branches.op(),
                foldString(branches.left()), foldString(branches.right()), branches.operator()), op.operator());
        }
        return a;
    }

    /** @return whether {@link Eval#num} of {@code a} reads no record ({@code Null} is the empty side of a unary op) */
    private static boolean constantOperand(PrintArg a) {
        return a instanceof PrintArg.Atom || a instanceof PrintArg.Null;
    }

    private static PrintArg.Atom constant(long v) {
        return new PrintArg.Atom(Long.toString(v), v);
    }

    /**
     * A {@code %s} whose text depends on numbers only: constant {@link #text}; a ternary ({@link #value} chooses
     * {@link #yes} or {@link #no}); or a {@link #leaf} ({@code __print_flags} / {@code __print_symbolic} of
     * {@link #value}), whose text for a value is made by the {@link EventPrinter} once and kept for the next records
     * with that value (a task state, a softirq vector: a few values over a whole recording).
     */
    static final class Choice {
        /** How many texts of a leaf are kept; further values are printed anew each time. */
        private static final int KEPT = 16;

        final String text;
        final PrintArg value;
        final Choice yes;
        final Choice no;
        final Segment leaf;
        private long[] keys;
        private String[] texts;
        private int kept;

        Choice(String text, PrintArg value, Choice yes, Choice no, Segment leaf) {
            this.text = text;
            this.value = value;
            this.yes = yes;
            this.no = no;
            this.leaf = leaf;
        }

        /** @return the leaf's text for {@code v}, the value of {@link #value} over {@code d} */
        String textOf(long v, RawData d, EventPrinter printer, StringBuilder scratch) {
            for (int i = 0; i < kept; i++) {
                if (keys[i] == v) {
                    return texts[i];
                }
            }
            scratch.setLength(0);
            printer.segment(leaf, d, scratch);
            String t = scratch.toString();
            if (keys == null) {
                keys = new long[KEPT];
                texts = new String[KEPT];
            }
            if (kept < KEPT) {
                keys[kept] = v;
                texts[kept++] = t;
            }
            return t;
        }
    }

    /** One piece of a plan: what to do, and the (folded) segment it prints. */
    static final class Step {
        static final int LITERAL = 0;
        static final int SIGNED = 1;
        static final int UNSIGNED = 2;
        static final int HEX = 3;
        static final int CHARS = 4;
        static final int DYNAMIC_STRING = 5;
        static final int CHOICE = 6;
        static final int OTHER = 7;

        final int kind;
        final Segment segment;
        /** Sign-extends a C value of the conversion's width held in a long: {@code (v << shift) >> shift}. */
        final int shift;
        final long mask;
        final int width;
        final boolean zeroPad;
        final FormatField field;
        final Choice choice;

        Step(int kind, Segment segment, int bits) {
            this(kind, segment, bits, null, null);
        }

        Step(int kind, Segment segment, int bits, FormatField field) {
            this(kind, segment, bits, field, null);
        }

        Step(int kind, Segment segment, int bits, FormatField field, Choice choice) {
            this.kind = kind;
            this.segment = segment;
            this.shift = 64 - bits;
            this.mask = bits == 64 ? -1L : (1L << bits) - 1;
            this.width = segment.format() == null ? -1 : segment.format().width;
            this.zeroPad = segment.format() != null && segment.format().zero;
            this.field = field;
            this.choice = choice;
        }
    }
}
