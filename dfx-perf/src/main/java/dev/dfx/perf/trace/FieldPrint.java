package dev.dfx.perf.trace;

import java.util.List;

/**
 * A {@code print fmt} made only of literal text and conversions that each print one field of the record as it
 * stands: an integer field ({@code REC->field}, or one cast, {@code (unsigned long long)REC->runtime}), a char array
 * ({@code REC->comm}) or a dynamic string ({@code __get_str(comm)}); no operator or {@code __print_*} helper. It is
 * taken apart once per format so that a
 * writer of millions of records of one event (a scheduler recording's {@code sched_waking}, {@code sched_stat_runtime})
 * can put each piece straight into its own encoding instead of interpreting the format into a {@link StringBuilder}
 * per record and encoding that again. The pieces, read in order, spell exactly what {@link EventPrinter#print} prints
 * for the record:
 * <ul>
 *   <li>{@link Kind#LITERAL}: {@link #literal(int)};</li>
 *   <li>{@link Kind#SIGNED}: {@link #number} in decimal as {@link Long#toString(long)} writes it;</li>
 *   <li>{@link Kind#UNSIGNED}: {@link #number} in decimal as {@link Long#toUnsignedString(long)} writes it;</li>
 *   <li>{@link Kind#FORMATTED}: what {@link #format} appends for {@link #number} (a padded, hex or octal
 *       conversion: {@code %03d}, {@code %x});</li>
 *   <li>{@link Kind#CHARS}: the bytes of the record from {@link #charsFrom} up to the first NUL before
 *       {@link #charsTo}, each byte one character (ISO-8859-1), as a {@code %s} of a string field prints them.</li>
 * </ul>
 * Immutable and thread-safe.
 */
public final class FieldPrint {
    /** What one piece prints. */
    public enum Kind { LITERAL, SIGNED, UNSIGNED, FORMATTED, CHARS }

    private final Kind[] kinds;
    private final String[] literals;
    private final FormatField[] fields;
    /** The width of the conversion's C type, 8 to 64 bits, per integer piece. */
    private final int[] bits;
    /** What a cast keeps of an integer field's value (all ones without a cast), per integer piece. */
    private final long[] masks;
    /** Whether a {@link Kind#CHARS} piece is a dynamic string ({@code __get_str}). */
    private final boolean[] dynamic;
    private final CFormat[] formats;

    private FieldPrint(int n) {
        kinds = new Kind[n];
        literals = new String[n];
        fields = new FormatField[n];
        bits = new int[n];
        masks = new long[n];
        dynamic = new boolean[n];
        formats = new CFormat[n];
    }

    /**
     * @param ev a tracepoint format
     * @return its print format taken apart, or null when it does not consist of literals and plain field
     *         conversions only (then only {@link EventPrinter#print} prints it): a failed format, an argument other
     *         than a field of the format (once cast for an integer), a {@code *} width, a {@code %s} with a width or
     *         of anything but a fixed-size array or dynamic string field, a pointer conversion
     */
    public static FieldPrint of(EventFormat ev) {
        if (ev.failed() || ev.printFormat() == null) {
            return null;
        }
        List<Segment> segments = ev.printFormat().segments();
        FieldPrint p = new FieldPrint(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            if (s.kind() == Segment.Kind.LITERAL) {
                p.kinds[i] = Kind.LITERAL;
                p.literals[i] = s.text();
                continue;
            }
            PrintArg arg = s.arg();
            long mask = -1;
            if (s.kind() == Segment.Kind.DIGIT && arg instanceof PrintArg.Cast c) {
                mask = c.mask();
                arg = c.item();
            }
            FormatField f = switch (arg) {
                case PrintArg.Field a -> a.field();
                case PrintArg.Str a when s.kind() == Segment.Kind.STRING -> a.field();
                case null, default -> null;
            };
            if (s.lenArg() != null || f == null) {
                return null;
            }
            p.fields[i] = f;
            p.formats[i] = s.format();
            p.masks[i] = mask;
            p.dynamic[i] = arg instanceof PrintArg.Str;
            if (p.dynamic[i]) {
                if (!s.format().plain || !f.dynamic()) {
                    return null;
                }
                p.kinds[i] = Kind.CHARS;
            } else if (s.kind() == Segment.Kind.DIGIT && !f.array() && (f.size() == 1 || f.size() == 2
                || f.size() == 4 || f.size() == 8)) {
                p.bits[i] = switch (s.ls()) {
                    case -2 -> 8;
                    case -1 -> 16;
                    case 0 -> 32;
                    default -> 64;
                };
                char conv = s.format().conv;
                p.kinds[i] = !s.format().plain || conv != 'd' && conv != 'i' && conv != 'u' ? Kind.FORMATTED
                    : conv == 'u' ? Kind.UNSIGNED : Kind.SIGNED;
            } else if (s.kind() == Segment.Kind.STRING && f.array() && !f.dynamic() && f.size() > 0
                && s.format().plain) {
                p.kinds[i] = Kind.CHARS;
            } else {
                return null;
            }
        }
        return p;
    }

    /** @return the number of pieces */
    public int size() {
        return kinds.length;
    }

    /** @return what piece {@code i} prints */
    public Kind kind(int i) {
        return kinds[i];
    }

    /** @return the text of a {@link Kind#LITERAL} piece */
    public String literal(int i) {
        return literals[i];
    }

    /**
     * @return the value an integer piece prints, read from {@code d} as {@link EventPrinter#print} reads it (0 where
     *         the field lies outside the data): sign-extended from the conversion's C type for {@link Kind#SIGNED},
     *         masked to it for {@link Kind#UNSIGNED} (to be read as unsigned 64-bit), the field as read for
     *         {@link Kind#FORMATTED}
     */
    public long number(int i, RawData d) {
        FormatField f = fields[i];
        long v = d.number(f.offset(), f.size()) & masks[i];
        int b = bits[i];
        return switch (kinds[i]) {
            case SIGNED -> b == 64 ? v : v << (64 - b) >> (64 - b);
            case UNSIGNED -> b == 64 ? v : v & (1L << b) - 1;
            default -> v;
        };
    }

    /** Appends what a {@link Kind#FORMATTED} piece prints for value {@code v} ({@link #number}). */
    public void format(int i, long v, StringBuilder out) {
        formats[i].formatInt(v, bits[i], -1, out);
    }

    /**
     * @return the offset in {@code d.seg()} of the first byte a {@link Kind#CHARS} piece may print, or -1 when it
     *         prints nothing (its string starts outside the data, or a dynamic string's length is 0)
     */
    public long charsFrom(int i, RawData d) {
        FormatField f = fields[i];
        long off = f.offset();
        if (dynamic[i]) {
            long loc = d.number(f.offset(), f.size()); // __data_loc: length << 16 | offset
            if ((loc >>> 16 & 0xffff) == 0) {
                return -1;
            }
            off = (loc & 0xffff) + (f.relative() ? f.offset() + f.size() : 0);
        }
        return off < 0 || off >= d.size() ? -1 : d.base() + off;
    }

    /**
     * @param from what {@link #charsFrom} returned for the piece, not -1
     * @return the offset in {@code d.seg()} past the last byte a {@link Kind#CHARS} piece may print (never past a
     *         fixed field, the data or the segment); it stops earlier at a NUL
     */
    public long charsTo(int i, RawData d, long from) {
        long rest = d.size() - (from - d.base());
        return Math.min(from + (dynamic[i] ? rest : Math.min(fields[i].size(), rest)), d.seg().byteSize());
    }
}
