package dev.dfx.record;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Little-endian, unaligned field layouts and the small helpers every record class shares: building a
 * struct layout whose size is checked, reading a field's offset by name, saturating narrow fields and
 * fixed-width ASCII strings. Stateless; safe from any thread.
 */
final class Le {
    /** One unsigned byte. */
    static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    /** 16-bit little-endian, any alignment. */
    static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** 32-bit little-endian, any alignment. */
    static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** 64-bit little-endian, any alignment. */
    static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Le() {
    }

    /**
     * Builds a struct of the given fields and checks that it is exactly {@code size} bytes: this is the
     * static size check of every record (it runs when the record class initialises).
     *
     * @throws IllegalStateException when the fields do not add up to {@code size}
     */
    static StructLayout struct(String name, int size, MemoryLayout... fields) {
        StructLayout layout = MemoryLayout.structLayout(fields).withName(name);
        if (layout.byteSize() != size) {
            throw new IllegalStateException(name + " record layout is " + layout.byteSize() + " bytes, expected " + size);
        }
        return layout;
    }

    /** @return the byte offset of field {@code name} in {@code layout} */
    static long offset(StructLayout layout, String name) {
        return layout.byteOffset(MemoryLayout.PathElement.groupElement(name));
    }

    /** @return the size in bytes of field {@code name} in {@code layout} */
    static int size(StructLayout layout, String name) {
        return Math.toIntExact(layout.select(MemoryLayout.PathElement.groupElement(name)).byteSize());
    }

    /** @return {@code count} padding bytes named {@code name} */
    static MemoryLayout pad(String name, int count) {
        return MemoryLayout.paddingLayout(count).withName(name);
    }

    /** @return an array field of {@code count} elements */
    static MemoryLayout array(String name, int count, MemoryLayout element) {
        return MemoryLayout.sequenceLayout(count, element).withName(name);
    }

    /** @return {@code v} clamped to {@code [0, 0xFFFFFFFF]}, as stored in an unsigned 32-bit field */
    static int satU32(long v) {
        return (int) Math.clamp(v, 0L, 0xFFFF_FFFFL);
    }

    /** @return {@code v} clamped to {@code [0, 0x7FFF]}, as stored in a signed 16-bit depth */
    static short satI16(long v) {
        return (short) Math.clamp(v, 0L, Short.MAX_VALUE);
    }

    /**
     * Zeroes {@code bytes} bytes at {@code off} with the widest stores that fit (8, then 4, 2, 1 bytes), without the
     * slice a {@code fill} would allocate; with a constant {@code bytes} the JIT unrolls it to a few stores.
     */
    static void zero(MemorySegment seg, long off, int bytes) {
        int i = 0;
        for (; i + Long.BYTES <= bytes; i += Long.BYTES) {
            seg.set(I64, off + i, 0L);
        }
        if (i + Integer.BYTES <= bytes) {
            seg.set(I32, off + i, 0);
            i += Integer.BYTES;
        }
        if (i + Short.BYTES <= bytes) {
            seg.set(I16, off + i, (short) 0);
            i += Short.BYTES;
        }
        if (i < bytes) {
            seg.set(U8, off + i, (byte) 0);
        }
    }

    /**
     * Writes {@code s} as ASCII into {@code width} bytes at {@code off}, truncated; a character outside ASCII is
     * stored as {@code '?'}. Allocates nothing.
     *
     * @param pad whether the bytes after the string are zeroed (not needed where they hold zeros already)
     */
    static void putAscii(MemorySegment seg, long off, int width, String s, boolean pad) {
        int n = Math.min(s.length(), width);
        for (int i = 0, end = pad ? width : n; i < end; i++) {
            char c = i < n ? s.charAt(i) : 0;
            seg.set(U8, off + i, (byte) (c < 0x80 ? c : '?'));
        }
    }

    /** @return the ASCII string in {@code width} bytes at {@code off}, up to the first zero byte */
    static String getAscii(MemorySegment seg, long off, int width) {
        int n = 0;
        while (n < width && seg.get(U8, off + n) != 0) {
            n++;
        }
        byte[] b = new byte[n];
        MemorySegment.copy(seg, U8, off, b, 0, n);
        return new String(b, StandardCharsets.US_ASCII);
    }
}
