package dev.dfx.export;

import dev.dfx.perf.text.Utf8Names;
import dev.dfx.perf.trace.FormatField;
import dev.dfx.perf.trace.RawData;
import dev.dfx.perf.trace.TracepointFields;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The task names ({@code comm}) of tracepoint records, decoded once per distinct name: a {@code sched_switch} carries
 * two {@code char[16]} comms, and a recording of millions of switches names a few hundred tasks. A fixed
 * char-array field of up to {@value #MAX_BYTES} bytes is compared in place against the names seen before (a
 * direct-mapped table of {@value #SLOTS} names, the last one seen per slot), so a name seen before costs no String and
 * no UTF-8 decoding; a field of {@value #COMM_BYTES} bytes (the kernel's comm) is read as two longs and compared as
 * those, without a loop over its bytes. Any other string field is read as
 * {@link TracepointFields#string(FormatField)} reads it.
 *
 * <p>The result is always {@code Utf8Names.decodeComm(fields.string(field))} ({@link Utf8Names#decodeComm}: the bytes up to the
 * first NUL, never past the field or the raw data, as UTF-8). Not thread-safe: one walk.
 */
final class TaskNames {
    /** Names kept; a power of two. */
    static final int SLOTS = 512;
    /** Longest field compared in place (the kernel's comm is {@code char[16]}). */
    static final int MAX_BYTES = 64;

    /** Size of the kernel's comm fields ({@code TASK_COMM_LEN}), compared as two longs. */
    static final int COMM_BYTES = 16;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private final byte[][] bytes = new byte[SLOTS][];
    private final String[] names = new String[SLOTS];
    private final byte[] scratch = new byte[MAX_BYTES];
    /** The {@value #COMM_BYTES} bytes of the comm fields seen before, as two longs each, and their names. */
    private final long[] firstWords = new long[SLOTS];
    private final long[] secondWords = new long[SLOTS];
    private final String[] commNames = new String[SLOTS];

    /**
     * @param fields the record's fields (read for fields not compared in place)
     * @param data   the record's raw data, as {@code fields} reads it
     * @param field  a string field of the record's format
     * @return the field's text decoded as UTF-8
     * @throws IllegalArgumentException for a field that is not a string
     */
    String of(TracepointFields fields, RawData data, FormatField field) {
        if (!field.string() || field.dynamic() || field.size() > MAX_BYTES || field.size() <= 0) {
            return Utf8Names.decodeComm(fields.string(field));
        }
        int off = field.offset();
        if (off < 0 || off >= data.size()) {
            return "";
        }
        MemorySegment seg = data.seg();
        long at = data.base() + off;
        if (field.size() == COMM_BYTES && off + COMM_BYTES <= data.size() && at + COMM_BYTES <= seg.byteSize()) {
            // a comm: its 16 bytes, NUL and whatever follows it included, as two words; equal words are equal
            // bytes up to the NUL, so the name found for them is the one the bytes decode to
            long first = seg.get(WORD, at);
            long second = seg.get(WORD, at + 8);
            long h = first * 0x9E3779B97F4A7C15L + second;
            int slot = (int) (h ^ h >>> 32 ^ h >>> 17) & (SLOTS - 1);
            String name = commNames[slot];
            if (name != null && firstWords[slot] == first && secondWords[slot] == second) {
                return name;
            }
            name = scan(seg, at, COMM_BYTES);
            firstWords[slot] = first;
            secondWords[slot] = second;
            commNames[slot] = name;
            return name;
        }
        return scan(seg, at, (int) Math.min(Math.min(field.size(), data.size() - off), seg.byteSize() - at));
    }

    /** @return the name of the {@code max} bytes at {@code at}, up to the first NUL, through the byte table */
    private String scan(MemorySegment seg, long at, int max) {
        int n = 0;
        int hash = 0;
        while (n < max) {
            byte b = seg.get(ValueLayout.JAVA_BYTE, at + n);
            if (b == 0) {
                break;
            }
            scratch[n++] = b;
            hash = 31 * hash + b;
        }
        int slot = (hash ^ hash >>> 16) & (SLOTS - 1);
        byte[] seen = bytes[slot];
        if (seen != null && Arrays.equals(seen, 0, seen.length, scratch, 0, n)) {
            return names[slot];
        }
        String name = Utf8Names.decodeComm(new String(scratch, 0, n, StandardCharsets.ISO_8859_1));
        bytes[slot] = Arrays.copyOf(scratch, n);
        names[slot] = name;
        return name;
    }
}
