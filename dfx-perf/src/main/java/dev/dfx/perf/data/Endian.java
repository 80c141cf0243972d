package dev.dfx.perf.data;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
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

    // The layouts are constants and each read picks one by a final boolean: a layout loaded from an instance field
    // is not a constant to the JIT, and every access through it then takes the var handle's generic path
    // (layout, alignment and bounds checks not folded) on each of the millions of fields a large file holds.
    private static final ValueLayout.OfLong LE_U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong BE_U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt LE_U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt BE_U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort LE_U16 =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort BE_U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfDouble LE_F64 =
        ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble BE_F64 =
        ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final ByteOrder order;
    private final boolean little;

    private Endian(ByteOrder order) {
        this.order = order;
        this.little = order == ByteOrder.LITTLE_ENDIAN;
    }

    /**
     * Reads once through every layout of this class, from the heap and from native memory. In a fresh JVM the first
     * read through a value layout builds that layout's var handle and spins the method-handle classes behind it, some
     * 5-10 ms that no AOT cache keeps (more than reading a small perf.data file takes); a command that reads perf.data
     * calls this on a background thread at start-up, while its main thread parses the command line, so that the file's
     * first field finds them built. Thread-safe; any number of calls.
     */
    public static void prepareReads() {
        long v = 0;
        for (MemorySegment seg : new MemorySegment[] {MemorySegment.ofArray(new byte[16]),
            MemorySegment.ofBuffer(ByteBuffer.allocateDirect(16))}) {
            for (Endian e : new Endian[] {LITTLE, BIG}) {
                v += e.u64(seg, 0) + e.u32(seg, 8) + e.u16(seg, 12) + (long) e.f64(seg, 0) + u8(seg, 15);
            }
            v += cString(seg, 0, 16).length();
        }
        if (v != 0) {
            throw new IllegalStateException("fresh zeroed memory read as " + v);
        }
    }

    /** @return the byte order read by this instance */
    public ByteOrder order() {
        return order;
    }

    /** @return the u64 (or s64) at {@code off} */
    public long u64(MemorySegment seg, long off) {
        return little ? seg.get(LE_U64, off) : seg.get(BE_U64, off);
    }

    /** @return the s32 at {@code off} */
    public int s32(MemorySegment seg, long off) {
        return little ? seg.get(LE_U32, off) : seg.get(BE_U32, off);
    }

    /** @return the u32 at {@code off}, zero-extended */
    public long u32(MemorySegment seg, long off) {
        return s32(seg, off) & 0xffff_ffffL;
    }

    /** @return the u16 at {@code off}, zero-extended */
    public int u16(MemorySegment seg, long off) {
        return (little ? seg.get(LE_U16, off) : seg.get(BE_U16, off)) & 0xffff;
    }

    /** @return the IEEE-754 double at {@code off} */
    public double f64(MemorySegment seg, long off) {
        return little ? seg.get(LE_F64, off) : seg.get(BE_F64, off);
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
        // segment to segment: the segment-to-array copy picks the array's element size with a pattern switch whose
        // invokedynamic call site the JVM links at run time (a class generated on a command's first string)
        MemorySegment.copy(seg, off, MemorySegment.ofArray(b), 0, n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
