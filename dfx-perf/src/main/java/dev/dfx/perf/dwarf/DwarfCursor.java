package dev.dfx.perf.dwarf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked little-endian reader over one debug section: fixed-size integers, LEB128, section offsets of
 * the 32- and 64-bit DWARF formats, target addresses and NUL-terminated strings. A read past the section's end
 * throws {@link DwarfException} naming the file, the section and the offset; nothing reads out of bounds. Not
 * thread-safe.
 */
final class DwarfCursor {
    /** LEB128 numbers longer than this are refused (real ones have at most 10 bytes). */
    private static final int MAX_LEB_BYTES = 16;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final DwarfSection section;
    private final MemorySegment bytes;
    private long pos;
    private int offsetSize = 4;

    DwarfCursor(DwarfSection section, long pos) {
        this.section = section;
        this.bytes = section.bytes();
        this.pos = pos;
    }

    long pos() {
        return pos;
    }

    void seek(long to) {
        pos = to;
    }

    long size() {
        return bytes.byteSize();
    }

    boolean atEnd(long end) {
        return Long.compareUnsigned(pos, end) >= 0;
    }

    void skip(long n) {
        need(n);
        pos += n;
    }

    int u8() {
        need(1);
        return bytes.get(ValueLayout.JAVA_BYTE, pos++) & 0xff;
    }

    int u16() {
        need(2);
        int v = bytes.get(U16, pos) & 0xffff;
        pos += 2;
        return v;
    }

    long u24() {
        long lo = u16();
        return lo | (long) u8() << 16;
    }

    long u32() {
        need(4);
        long v = Integer.toUnsignedLong(bytes.get(U32, pos));
        pos += 4;
        return v;
    }

    long u64() {
        need(8);
        long v = bytes.get(U64, pos);
        pos += 8;
        return v;
    }

    /**
     * Reads an initial length (DWARF 5 §7.4: 32-bit, or {@code 0xffffffff} then 64-bit) and checks it.
     *
     * @param what what the length measures, for the message
     * @return the offset where the measured bytes end; {@link #offsetSize()} tells the format's offset size
     * @throws DwarfException for a reserved value or a length past the section's end
     */
    long initialLength(String what) {
        long length = u32();
        offsetSize = 4;
        if (length == 0xffffffffL) {
            length = u64();
            offsetSize = 8;
        } else if (length >= 0xfffffff0L) {
            throw error(what + " length 0x" + Long.toHexString(length) + ", a reserved value");
        }
        if (length < 0 || length > bytes.byteSize() - pos) {
            throw error(what + " of " + Long.toUnsignedString(length) + " bytes running past the section's "
                + bytes.byteSize());
        }
        return pos + length;
    }

    /** @return the offset size (4 or 8) of the format the last {@link #initialLength} read says */
    int offsetSize() {
        return offsetSize;
    }

    /** @return an unsigned integer of {@code size} bytes (1, 2, 4 or 8) */
    long unsigned(int size) {
        return switch (size) {
            case 1 -> u8();
            case 2 -> u16();
            case 4 -> u32();
            case 8 -> u64();
            default -> throw error("an integer of " + size + " bytes, expected 1, 2, 4 or 8");
        };
    }

    long uleb() {
        long v = 0;
        int shift = 0;
        for (int i = 0; i < MAX_LEB_BYTES; i++) {
            int b = u8();
            if (shift < 64) {
                v |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw error("a LEB128 number longer than " + MAX_LEB_BYTES + " bytes");
    }

    long sleb() {
        long v = 0;
        int shift = 0;
        for (int i = 0; i < MAX_LEB_BYTES; i++) {
            int b = u8();
            if (shift < 64) {
                v |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                if (shift < 64 && (b & 0x40) != 0) {
                    v |= -1L << shift;
                }
                return v;
            }
        }
        throw error("a LEB128 number longer than " + MAX_LEB_BYTES + " bytes");
    }

    /** @return a uleb that must fit an int (counts, indexes, codes) */
    int ulebInt(String what) {
        long v = uleb();
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw error(what + " " + Long.toUnsignedString(v) + ", expected at most " + Integer.MAX_VALUE);
        }
        return (int) v;
    }

    /** @return the NUL-terminated string at the position (its bytes as UTF-8), the position after the NUL */
    String cstring() {
        long start = pos;
        long end = start;
        long size = bytes.byteSize();
        while (true) {
            if (end >= size) {
                pos = start;
                throw error("a string without its terminating NUL");
            }
            if (bytes.get(ValueLayout.JAVA_BYTE, end) == 0) {
                break;
            }
            end++;
        }
        if (end - start > Integer.MAX_VALUE - 8) {
            throw error("a string of " + (end - start) + " bytes");
        }
        byte[] b = bytes.asSlice(start, end - start).toArray(ValueLayout.JAVA_BYTE);
        pos = end + 1;
        return new String(b, StandardCharsets.UTF_8);
    }

    DwarfException error(String what) {
        return section.error(pos, what);
    }

    private void need(long n) {
        if (n < 0 || Long.compareUnsigned(pos, bytes.byteSize()) > 0 || n > bytes.byteSize() - pos) {
            throw error(n + " bytes past the end of the section (" + bytes.byteSize() + " bytes)");
        }
    }
}
