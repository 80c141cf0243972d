package dev.dfx.chunk;

import static dev.dfx.chunk.ChunkFormat.U16;
import static dev.dfx.chunk.ChunkFormat.U32;
import static dev.dfx.chunk.ChunkFormat.U64;
import static dev.dfx.chunk.ChunkFormat.bad;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Encodes and decodes the 64-byte chunk header (layout in {@code package-info.java}). Stateless; thread-safe.
 */
final class ChunkHeader {
    /* Field offsets in the 64-byte chunk header (package-info.java); the magic is at 0, the CRC at CHUNK_HEADER_CRC_AT. */
    private static final int KIND = 4;
    private static final int FLAGS = 6;
    private static final int LANE = 8;
    private static final int RECORD_SIZE = 12;
    private static final int SEQ = 16;
    private static final int RECORD_COUNT = 24;
    private static final int PAYLOAD_CRC = 28;
    private static final int FIRST_TIMESTAMP = 32;
    private static final int LAST_TIMESTAMP = 40;
    private static final int STORED_LENGTH = 48;
    private static final int RESERVED = 56;

    private ChunkHeader() {
    }

    /**
     * Writes the header of {@code c} at {@code at} in {@code dst} and seals it with its CRC32C.
     *
     * @param dst destination with at least 64 bytes from {@code at}
     */
    static void encode(MemorySegment dst, long at, ChunkInfo c) {
        dst.set(U32, at, ChunkFormat.CHUNK_MAGIC);
        dst.set(U16, at + KIND, (short) c.kind());
        dst.set(U16, at + FLAGS, (short) c.flags());
        dst.set(U32, at + LANE, c.lane());
        dst.set(U32, at + RECORD_SIZE, c.recordSize());
        dst.set(U64, at + SEQ, c.seq());
        dst.set(U32, at + RECORD_COUNT, c.recordCount());
        dst.set(U32, at + PAYLOAD_CRC, c.payloadCrc());
        dst.set(U64, at + FIRST_TIMESTAMP, c.firstTimestamp());
        dst.set(U64, at + LAST_TIMESTAMP, c.lastTimestamp());
        dst.set(U64, at + STORED_LENGTH, c.storedLength());
        dst.set(U32, at + RESERVED, 0);
        dst.set(U32, at + ChunkFormat.CHUNK_HEADER_CRC_AT, headerCrc(dst, at));
    }

    /**
     * Decodes and validates the chunk header at {@code at}. The caller has checked that 64 bytes are there; this
     * method does not look at the payload.
     *
     * @throws dev.dfx.error.BadInputException on a wrong magic, a header checksum mismatch, a kind missing from the
     *                                         kind table, a record size that disagrees with it, a flag the file's
     *                                         version does not know, or an inconsistent payload length, naming the
     *                                         byte offset
     */
    static ChunkInfo decode(MemorySegment file, long at, ChunkFileHeader header, Path path) {
        int magic = file.get(U32, at);
        if (magic != ChunkFormat.CHUNK_MAGIC) {
            throw bad(path, at, "expected a chunk header (magic \"CHNK\"), found " + ChunkFormat.hex(magic));
        }
        int stored = file.get(U32, at + ChunkFormat.CHUNK_HEADER_CRC_AT);
        int computed = headerCrc(file, at);
        if (stored != computed) {
            throw bad(path, at, "chunk header checksum mismatch (stored " + ChunkFormat.hex(stored) + ", computed "
                    + ChunkFormat.hex(computed) + ")");
        }
        int kindId = ChunkFormat.u16(file, at + KIND);
        BufferKind kind = header.kind(kindId);
        if (kind == null) {
            throw bad(path, at + KIND, "chunk kind " + kindId + " is not in the file's kind table");
        }
        long recordSize = ChunkFormat.u32(file, at + RECORD_SIZE);
        if (recordSize != kind.recordSize()) {
            throw bad(path, at + RECORD_SIZE, "chunk record size " + recordSize + " disagrees with kind " + kind.name()
                    + " (" + kind.recordSize() + " bytes in the kind table)");
        }
        int flags = ChunkFormat.u16(file, at + FLAGS);
        int known = header.version() >= 2 ? ChunkInfo.ZERO_BLOCKS : 0;
        if ((flags & ~known) != 0) {
            throw bad(path, at + FLAGS, "chunk flags " + ChunkFormat.hex(flags) + " are not defined in format version "
                    + header.version());
        }
        long count = ChunkFormat.u32(file, at + RECORD_COUNT);
        long storedLength = file.get(U64, at + STORED_LENGTH);
        if (count > Integer.MAX_VALUE) {
            throw bad(path, at + RECORD_COUNT, "chunk record count " + count + " exceeds 2^31-1");
        }
        boolean encoded = (flags & ChunkInfo.ZERO_BLOCKS) != 0;
        if (encoded ? storedLength < 0 || storedLength > count * recordSize + 8L * ZeroBlocks.words(count * recordSize)
                : storedLength != count * recordSize) {
            throw bad(path, at + STORED_LENGTH, "chunk payload length " + Long.toUnsignedString(storedLength) + " does not fit record"
                    + " count " + count + " x record size " + recordSize + (encoded ? " (zero-block encoded)" : ""));
        }
        return new ChunkInfo(at, kindId, file.get(U32, at + LANE), file.get(U64, at + SEQ), (int) count,
                (int) recordSize, file.get(U64, at + FIRST_TIMESTAMP), file.get(U64, at + LAST_TIMESTAMP), file.get(U32, at + PAYLOAD_CRC), flags,
                storedLength);
    }

    private static int headerCrc(MemorySegment s, long at) {
        return ChunkFormat.crc32c(s.asSlice(at, ChunkFormat.CHUNK_HEADER_CRC_AT));
    }
}
