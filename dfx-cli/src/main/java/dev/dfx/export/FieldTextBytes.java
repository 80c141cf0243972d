package dev.dfx.export;

import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.FieldPrint;
import dev.dfx.perf.trace.RawData;
import java.util.Arrays;

/**
 * The tracepoint text of a format made of literals and plain field conversions ({@link FieldPrint}), written
 * straight into an event's JSON bytes: the literals encoded once per format, the integers as decimal bytes, a
 * {@code %s} of a string field escaped from the record's bytes, with no {@link StringBuilder} of the text and no
 * second pass that escapes it; a padded or hex conversion ({@code target_cpu=%03d}) of a value below
 * {@value #SMALL}, most such values (cpu numbers, priorities), is copied from its bytes made once. The bytes are those
 * {@link TraceEventBytes#string} writes for the text {@link dev.dfx.perf.trace.EventPrinter#print} prints.
 * Immutable and thread-safe: made on the walk's thread, used on the trace writer's.
 */
final class FieldTextBytes {
    /** Values of a padded or hex conversion whose text is made once, from 0. */
    static final int SMALL = 256;

    private final FieldPrint print;
    /** The JSON bytes of each literal piece, escaped, without quotes; null for the other pieces. */
    private final byte[][] literals;
    /** Per padded or hex piece, the JSON bytes of its text for each value below {@value #SMALL}; else null. */
    private final byte[][][] small;

    private FieldTextBytes(FieldPrint print) {
        this.print = print;
        this.literals = new byte[print.size()][];
        this.small = new byte[print.size()][][];
        TraceEventBytes b = new TraceEventBytes();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < print.size(); i++) {
            if (print.kind(i) == FieldPrint.Kind.LITERAL) {
                b.reset().chars(print.literal(i));
                literals[i] = Arrays.copyOf(b.array(), b.size());
            } else if (print.kind(i) == FieldPrint.Kind.FORMATTED) {
                small[i] = new byte[SMALL][];
                for (int v = 0; v < SMALL; v++) {
                    text.setLength(0);
                    print.format(i, v, text);
                    b.reset().chars(text);
                    small[i][v] = Arrays.copyOf(b.array(), b.size());
                }
            }
        }
    }

    /** @return the writer of {@code format}'s texts, or null when {@link FieldPrint#of} does not take it apart */
    static FieldTextBytes of(EventFormat format) {
        FieldPrint p = FieldPrint.of(format);
        return p == null ? null : new FieldTextBytes(p);
    }

    /**
     * Appends the text of record {@code d} as a JSON string, quoted.
     *
     * @param scratch where a padded or hex conversion is formatted first (the caller's, reused)
     */
    void write(RawData d, TraceEventBytes b, StringBuilder scratch) {
        b.raw('"');
        for (int i = 0; i < literals.length; i++) {
            switch (print.kind(i)) {
                case LITERAL -> b.raw(literals[i]);
                case SIGNED -> b.integer(print.number(i, d));
                case UNSIGNED -> b.unsigned(print.number(i, d));
                case FORMATTED -> {
                    long v = print.number(i, d);
                    if (v >= 0 && v < SMALL) {
                        b.raw(small[i][(int) v]);
                    } else {
                        scratch.setLength(0);
                        print.format(i, v, scratch);
                        b.chars(scratch);
                    }
                }
                case CHARS -> {
                    long from = print.charsFrom(i, d);
                    if (from >= 0) {
                        b.latin1(d.seg(), from, print.charsTo(i, d, from));
                    }
                }
            }
        }
        b.raw('"');
    }
}
