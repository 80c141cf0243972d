package dev.dfx.perf.trace;

import java.util.Locale;

/**
 * libtraceevent's fallback for events whose format failed to parse ({@code tep_print_fields} and
 * {@code tep_print_field} of perf 6.1's in-tree copy, tools/lib/traceevent/event-parse.c): {@code " name=value"}
 * for each own field that was read before the failure. Pointers and unsigned {@code long}s print as hex, other
 * unsigned numbers in decimal; signed numbers in decimal ({@code %2d}, {@code %1d} for 2- and 1-byte fields, a
 * 4-byte {@code long} as hex); char arrays as text when printable, other arrays as {@code ARRAY[xx, ...]}.
 * Stateless.
 */
final class RawFields {
    private RawFields() {
    }

    static void print(EventFormat ev, RawData d, StringBuilder out) {
        for (FormatField f : ev.fields()) {
            out.append(' ').append(f.name()).append('=');
            value(f, d, out);
        }
    }

    private static void value(FormatField f, RawData d, StringBuilder out) {
        if (f.array()) {
            array(f, d, out);
            return;
        }
        long v = d.number(f.offset(), f.size());
        if (f.pointer()) {
            out.append("0x").append(Long.toHexString(v));
        } else if (f.signed()) {
            switch (f.size()) {
                case 4 -> out.append(f.isLong() ? "0x" + Integer.toHexString((int) v) : Integer.toString((int) v));
                case 2 -> out.append(String.format(Locale.ROOT, "%2d", (short) v));
                case 1 -> out.append((byte) v);
                default -> out.append(v);
            }
        } else if (f.isLong()) {
            out.append("0x").append(Long.toHexString(v));
        } else {
            out.append(Long.toUnsignedString(v));
        }
    }

    private static void array(FormatField f, RawData d, StringBuilder out) {
        int off = f.offset();
        int len = f.size();
        if (f.dynamic()) {
            long[] loc = Eval.dynamic(f, d);
            off = (int) loc[0];
            len = (int) loc[1];
        }
        if (f.string() && printable(d, off, len)) {
            out.append(d.cString(off, d.size() - off)); // "%s": up to the NUL, wherever it is
            return;
        }
        out.append("ARRAY[");
        for (int i = 0; i < len; i++) {
            if (i > 0) {
                out.append(", ");
            }
            int b = d.u8(off + i);
            out.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
        }
        out.append(']');
    }

    /** {@code is_printable_array}: every byte before the first NUL is {@code isprint} or {@code isspace}. */
    private static boolean printable(RawData d, int off, int len) {
        for (int i = 0; i < len; i++) {
            int c = d.u8(off + i);
            if (c == 0) {
                break;
            }
            if (!(c >= 0x20 && c < 0x7f || c >= '\t' && c <= '\r')) {
                return false;
            }
        }
        return true;
    }
}
