package dev.dfx.chunk;

import dev.dfx.error.BadInputException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Constants and byte-level helpers of the chunk file format, versions 1 to 3 (layout in {@code package-info.java}).
 * Stateless; all methods are thread-safe.
 */
final class ChunkFormat {
    /** The version this dfx writes (3: the file header holds the run id). */
    static final int VERSION = 3;
    /** The oldest version this dfx reads (version 1 has no chunk flags). */
    static final int MIN_VERSION = 1;

    static final long FILE_MAGIC = magic8("DFXCHUNK");
    /** Fixed part of the file header of versions 1 and 2, bytes (the subsystem name follows it). */
    static final int FILE_HEADER_FIXED = 24;
    /** Fixed part of the file header of version 3: the version 1 part, then the 16-byte run id, bytes. */
    static final int FILE_HEADER_FIXED_V3 = 40;
    static final int KIND_ENTRY_FIXED = 16;
    static final int MAX_NAME_BYTES = 255;
    static final int MAX_RECORD_SIZE = 1 << 30;

    static final int CHUNK_MAGIC = (int) magic8("CHNK\0\0\0\0");
    static final int CHUNK_HEADER_SIZE = 64;
    static final int CHUNK_HEADER_CRC_AT = 60;

    static final long INDEX_MAGIC = magic8("DFXINDEX");
    static final int INDEX_HEADER_SIZE = 16;
    static final int INDEX_ENTRY_SIZE = 48;

    static final long TRAILER_MAGIC = magic8("DFXTRAIL");
    static final int TRAILER_SIZE = 32;

    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ChunkFormat() {
    }

    /** @return the 8 ASCII bytes of {@code s} as a little-endian long (so the file shows them in reading order) */
    static long magic8(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[i] & 0xFF);
        }
        return v;
    }

    /** @return the length of the fixed part of a file header of {@code version}, where the subsystem name starts */
    static int fixedHeader(int version) {
        return version >= 3 ? FILE_HEADER_FIXED_V3 : FILE_HEADER_FIXED;
    }

    /** @return {@code n} rounded up to a multiple of 8 */
    static long align8(long n) {
        return (n + 7) & ~7L;
    }

    static int u16(MemorySegment s, long at) {
        return Short.toUnsignedInt(s.get(U16, at));
    }

    static long u32(MemorySegment s, long at) {
        return Integer.toUnsignedLong(s.get(U32, at));
    }

    /**
     * CRC32C of {@code segment} (any size; native, mapped or {@code byte[]}-backed segments are read in place).
     */
    static int crc32c(MemorySegment segment) {
        CRC32C crc = new CRC32C();
        update(crc, segment);
        return (int) crc.getValue();
    }

    /** Feeds {@code segment} to {@code crc} in pieces that fit a ByteBuffer. */
    static void update(CRC32C crc, MemorySegment segment) {
        final long piece = 1L << 30;
        for (long at = 0, n = segment.byteSize(); at < n; at += piece) {
            MemorySegment part = segment.asSlice(at, Math.min(piece, n - at));
            try {
                crc.update(part.asByteBuffer());
            } catch (UnsupportedOperationException heapNotBytes) {
                // A heap segment over long[] or int[] has no ByteBuffer view; checksum a copy.
                crc.update(part.toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    /** @return the one-line bad-input error for {@code file} at byte {@code offset} */
    static BadInputException bad(Path file, long offset, String what) {
        return new BadInputException(file + ": byte offset " + offset + ": " + what);
    }

    static String hex(int v) {
        return "0x" + Integer.toHexString(v);
    }
}
