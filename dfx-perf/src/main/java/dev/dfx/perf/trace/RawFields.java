package dev.dfx.perf.trace;

/**
 * libtraceevent's fallback for events whose print format failed to parse ({@code tep_print_fields}):
 * {@code " name=value"} for each own field. Stateless.
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
            int off = f.offset();
            int len = f.size();
            if (f.dynamic()) {
                long[] loc = Eval.dynamic(f, d);
                off = (int) loc[0];
                len = (int) loc[1];
            }
            if (f.string()) {
                out.append(d.cString(off, len));
            } else {
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
            return;
        }
        long v = d.number(f.offset(), f.size());
        if (f.pointer()) {
            out.append("0x").append(Long.toHexString(v));
        } else if (f.signed()) {
            int shift = 64 - 8 * Math.min(8, Math.max(1, f.size()));
            long sv = (v << shift) >> shift;
            out.append(sv);
            if (f.isLong() || f.size() == 8) {
                out.append(" (0x").append(Long.toHexString(v)).append(')');
            }
        } else {
            out.append(Long.toUnsignedString(v));
            if (f.isLong() || f.size() == 8) {
                out.append(" (0x").append(Long.toHexString(v)).append(')');
            }
        }
    }
}
