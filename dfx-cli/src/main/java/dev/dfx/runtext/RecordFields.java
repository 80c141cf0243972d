package dev.dfx.runtext;

import dev.dfx.perf.text.TextSink;
import dev.dfx.record.TaskId;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Prints one record's fields as {@code name=value} pairs, walking its struct layout (the record schema): integers
 * in decimal (bytes unsigned, wider fields signed, as the schemas use them), task ids ({@link TaskId#FIELDS}) as
 * {@code 0x%016x} like every other dfx output, byte arrays that hold printable text
 * as quoted strings, other arrays as {@code [a,b,...]} and nested structs as {@code {...}}, with trailing zero
 * elements left out ({@code []} when all are zero). Padding and the field named {@code skip} (the primary
 * timestamp, printed in its own column) are left out. A kind without a schema prints its size. Stateless.
 */
final class RecordFields {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private RecordFields() {
    }

    /**
     * @param layout the record's layout, or {@code null} when the kind has no schema
     * @param skip   byte offset of a field not to print (the primary timestamp), or -1
     * @param rec    the records
     * @param at     byte offset of the record in {@code rec}
     * @param size   the record's size
     * @param out    where the text goes: fields separated by single spaces, no newline
     */
    static void print(StructLayout layout, long skip, MemorySegment rec, long at, int size, TextSink out) {
        if (layout == null) {
            out.put("(").dec(size).put("-byte record, no schema for this kind)");
            return;
        }
        boolean first = true;
        long off = 0;
        for (MemoryLayout m : layout.memberLayouts()) {
            if (!(m instanceof PaddingLayout) && off != skip) {
                if (!first) {
                    out.put(' ');
                }
                first = false;
                out.put(m.name().orElse("?")).put('=');
                value(m, rec, at + off, out, m.name().filter(TaskId.FIELDS::contains).isPresent());
            }
            off += m.byteSize();
        }
    }

    private static void value(MemoryLayout m, MemorySegment s, long at, TextSink out, boolean taskId) {
        switch (m) {
            case ValueLayout v when taskId && v.byteSize() == Long.BYTES -> out.put("0x").hexZero(s.get(I64, at), 16);
            case ValueLayout v -> out.dec(number(v, s, at));
            case SequenceLayout q -> sequence(q, s, at, out, taskId);
            case GroupLayout g -> {
                out.put('{');
                boolean first = true;
                long off = 0;
                for (MemoryLayout f : g.memberLayouts()) {
                    if (!(f instanceof PaddingLayout)) {
                        out.put(first ? "" : " ").put(f.name().orElse("?")).put('=');
                        value(f, s, at + off, out, f.name().filter(TaskId.FIELDS::contains).isPresent());
                        first = false;
                    }
                    off += f.byteSize();
                }
                out.put('}');
            }
            default -> out.put('?');
        }
    }

    private static void sequence(SequenceLayout q, MemorySegment s, long at, TextSink out, boolean taskId) {
        MemoryLayout e = q.elementLayout();
        long n = q.elementCount();
        long w = e.byteSize();
        if (e instanceof ValueLayout.OfByte && isText(s, at, n)) {
            out.put('"');
            for (long i = 0; i < n && s.get(ValueLayout.JAVA_BYTE, at + i) != 0; i++) {
                out.put((char) s.get(ValueLayout.JAVA_BYTE, at + i));
            }
            out.put('"');
            return;
        }
        long used = n;
        while (used > 0 && isZero(s, at + (used - 1) * w, w)) {
            used--;
        }
        out.put('[');
        for (long i = 0; i < used; i++) {
            if (i > 0) {
                out.put(',');
            }
            value(e, s, at + i * w, out, taskId);
        }
        out.put(']');
    }

    private static long number(ValueLayout v, MemorySegment s, long at) {
        return switch ((int) v.byteSize()) {
            case 1 -> Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, at));
            case 2 -> s.get(I16, at);
            case 4 -> s.get(I32, at);
            default -> s.get(I64, at);
        };
    }

    /** @return whether the bytes are printable ASCII up to a first zero byte, and not all zero */
    private static boolean isText(MemorySegment s, long at, long n) {
        if (s.get(ValueLayout.JAVA_BYTE, at) == 0) {
            return false;
        }
        for (long i = 0; i < n; i++) {
            byte b = s.get(ValueLayout.JAVA_BYTE, at + i);
            if (b == 0) {
                return true;
            }
            if (b < 0x20 || b > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static boolean isZero(MemorySegment s, long at, long n) {
        for (long i = 0; i < n; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, at + i) != 0) {
                return false;
            }
        }
        return true;
    }
}
