package dev.dfx.perf.data;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads unaligned integers of one byte order from a {@link MemorySegment}. A perf.data file is written in
 * the native order of the recording machine; the reader picks one instance from the file magic
 * ({@code "PERFILE2"} read as a u64) and uses it for every multi-byte field.
 *
 * <p>Offsets are absolute byte offsets into the segment given. Unsigned 32-bit values are returned as
 * {@code long}; u64 values are returned as Java {@code long} (two's complement, compare with
 * {@link Long#compareUnsigned}). Immutable and thread-safe; reading outside the segment throws
 * {@link IndexOutOfBoundsException}.
 */
public final class Endian {
    /** Little-endian (x86, arm64): the order of every file recorded on this machine. */
    public static final Endian LITTLE = new Endian(ByteOrder.LITTLE_ENDIAN);
    /** Big-endian (s390, older powerpc). */
    public static final Endian BIG = new Endian(ByteOrder.BIG_ENDIAN);

    private final ByteOrder order;
    private final ValueLayout.OfLong u64;
    private final ValueLayout.OfInt u32;
    private final ValueLayout.OfShort u16;
    private final ValueLayout.OfDouble f64;

    private Endian(ByteOrder order) {
        this.order = order;
        this.u64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order);
        this.u32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
        this.u16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order);
        this.f64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(order);
    }

    /** @return the byte order read by this instance */
    public ByteOrder order() {
        return order;
    }

    /** @return the u64 (or s64) at {@code off} */
    public long u64(MemorySegment seg, long off) {
        return seg.get(u64, off);
    }

    /** @return the s32 at {@code off} */
    public int s32(MemorySegment seg, long off) {
        return seg.get(u32, off);
    }

    /** @return the u32 at {@code off}, zero-extended */
    public long u32(MemorySegment seg, long off) {
        return seg.get(u32, off) & 0xffff_ffffL;
    }

    /** @return the u16 at {@code off}, zero-extended */
    public int u16(MemorySegment seg, long off) {
        return seg.get(u16, off) & 0xffff;
    }

    /** @return the IEEE-754 double at {@code off} */
    public double f64(MemorySegment seg, long off) {
        return seg.get(f64, off);
    }

    /** @return the unsigned byte at {@code off} */
    public static int u8(MemorySegment seg, long off) {
        return seg.get(ValueLayout.JAVA_BYTE, off) & 0xff;
    }

    /**
     * Reads a NUL-terminated string of at most {@code max} bytes (the whole range when no NUL occurs),
     * decoding bytes as ISO-8859-1 so that every byte maps to one char and nothing is lost.
     *
     * @return the string before the first NUL
     */
    public static String cString(MemorySegment seg, long off, long max) {
        long end = Math.min(off + max, seg.byteSize());
        long n = 0;
        while (off + n < end && seg.get(ValueLayout.JAVA_BYTE, off + n) != 0) {
            n++;
        }
        byte[] b = new byte[(int) n];
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, off, b, 0, (int) n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
