package dev.dfx.chunk;

import static dev.dfx.chunk.ChunkFormat.U16;
import static dev.dfx.chunk.ChunkFormat.U32;
import static dev.dfx.chunk.ChunkFormat.U64;
import static dev.dfx.chunk.ChunkFormat.bad;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The chunk index and the fixed-size trailer at the end of a closed chunk file (layout in
 * {@code package-info.java}): built entry by entry while chunks are written, decoded by the reader.
 *
 * <p>Not thread-safe; {@link ChunkWriter} calls it under its lock.
 */
final class ChunkIndex {
    /* Field offsets in one 48-byte index entry (package-info.java). */
    private static final int ENTRY_OFFSET = 0;
    private static final int ENTRY_SEQ = 8;
    private static final int ENTRY_FIRST_TIMESTAMP = 16;
    private static final int ENTRY_LAST_TIMESTAMP = 24;
    private static final int ENTRY_LANE = 32;
    private static final int ENTRY_RECORD_COUNT = 36;
    private static final int ENTRY_KIND = 40;
    private static final int ENTRY_RESERVED = 42;
    /* Field offsets in the index header: magic at 0, then the chunk count. */
    private static final int INDEX_COUNT = 8;
    /* Field offsets in the 32-byte trailer; its CRC covers the bytes before TRAILER_CRC. */
    private static final int TRAILER_INDEX_OFFSET = 0;
    private static final int TRAILER_COUNT = 8;
    private static final int TRAILER_INDEX_CRC = 16;
    private static final int TRAILER_CRC = 20;
    private static final int TRAILER_MAGIC_AT = 24;

    /** Index bytes so far, header slot included; grown by doubling (48 bytes per chunk). */
    private byte[] bytes = new byte[ChunkFormat.INDEX_HEADER_SIZE + 64 * ChunkFormat.INDEX_ENTRY_SIZE];
    private long count;

    /** Appends the entry of one written chunk. Chunks must be added in file order. */
    void add(ChunkInfo c) {
        int at = Math.toIntExact(ChunkFormat.INDEX_HEADER_SIZE + count * ChunkFormat.INDEX_ENTRY_SIZE);
        if (at + ChunkFormat.INDEX_ENTRY_SIZE > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.toIntExact(Math.min(Integer.MAX_VALUE - 8, 2L * bytes.length)));
        }
        MemorySegment s = MemorySegment.ofArray(bytes);
        s.set(U64, at + ENTRY_OFFSET, c.offset());
        s.set(U64, at + ENTRY_SEQ, c.seq());
        s.set(U64, at + ENTRY_FIRST_TIMESTAMP, c.firstTimestamp());
        s.set(U64, at + ENTRY_LAST_TIMESTAMP, c.lastTimestamp());
        s.set(U32, at + ENTRY_LANE, c.lane());
        s.set(U32, at + ENTRY_RECORD_COUNT, c.recordCount());
        s.set(U16, at + ENTRY_KIND, (short) c.kind());
        s.set(U16, at + ENTRY_RESERVED, (short) 0);
        s.set(U32, at + ENTRY_RESERVED + Short.BYTES, 0);
        count++;
    }

    /** @return chunks added so far */
    long count() {
        return count;
    }

    /**
     * @param indexOffset file offset where the index will be written (just past the last chunk)
     * @return the index followed by the trailer, ready to be written at {@code indexOffset}
     */
    byte[] encodeWithTrailer(long indexOffset) {
        int indexLength = Math.toIntExact(ChunkFormat.INDEX_HEADER_SIZE + count * ChunkFormat.INDEX_ENTRY_SIZE);
        byte[] out = Arrays.copyOf(bytes, indexLength + ChunkFormat.TRAILER_SIZE);
        MemorySegment s = MemorySegment.ofArray(out);
        s.set(U64, 0, ChunkFormat.INDEX_MAGIC);
        s.set(U64, INDEX_COUNT, count);
        int indexCrc = ChunkFormat.crc32c(s.asSlice(0, indexLength));
        MemorySegment t = s.asSlice(indexLength);
        t.set(U64, TRAILER_INDEX_OFFSET, indexOffset);
        t.set(U64, TRAILER_COUNT, count);
        t.set(U32, TRAILER_INDEX_CRC, indexCrc);
        t.set(U32, TRAILER_CRC, ChunkFormat.crc32c(t.asSlice(0, TRAILER_CRC)));
        t.set(U64, TRAILER_MAGIC_AT, ChunkFormat.TRAILER_MAGIC);
        return out;
    }

    /** A valid trailer: where the index is and how many chunks it lists. */
    record Trailer(long indexOffset, long chunkCount) {
    }

    /** What {@link #trailer} found: a valid trailer, or null and why there is none. */
    record Lookup(Trailer trailer, String whyAbsent) {
    }

    /**
     * Looks for a valid trailer at the end of {@code file}.
     *
     * @param firstChunk file offset just past the file header
     * @return the trailer, or no trailer and why when there is none or it is torn or corrupt (the reader then
     *         falls back to a sequential scan, which loses nothing that the index would have listed)
     * @throws dev.dfx.error.BadInputException when the trailer is sealed by a correct checksum but points at an
     *                                         index that does not fit the file
     */
    static Lookup trailer(MemorySegment file, long firstChunk, Path path) {
        long size = file.byteSize();
        long at = size - ChunkFormat.TRAILER_SIZE;
        if (at < firstChunk + ChunkFormat.INDEX_HEADER_SIZE || file.get(U64, at + TRAILER_MAGIC_AT) != ChunkFormat.TRAILER_MAGIC) {
            return new Lookup(null, "no chunk index (the writer did not close the file)");
        }
        int stored = file.get(U32, at + TRAILER_CRC);
        int computed = ChunkFormat.crc32c(file.asSlice(at, TRAILER_CRC));
        if (stored != computed) {
            return new Lookup(null, "trailer at byte offset " + at + " has a checksum mismatch (stored "
                    + ChunkFormat.hex(stored) + ", computed " + ChunkFormat.hex(computed) + ")");
        }
        long indexOffset = file.get(U64, at + TRAILER_INDEX_OFFSET);
        long count = file.get(U64, at + TRAILER_COUNT);
        long expectedEnd = indexOffset + ChunkFormat.INDEX_HEADER_SIZE + count * ChunkFormat.INDEX_ENTRY_SIZE;
        if (indexOffset < firstChunk || indexOffset % 8 != 0 || count < 0 || count > size / ChunkFormat.INDEX_ENTRY_SIZE
                || expectedEnd != at) {
            throw bad(path, at, "trailer points at a chunk index of " + count + " entries at offset " + indexOffset
                    + ", which does not end where the trailer starts");
        }
        return new Lookup(new Trailer(indexOffset, count), null);
    }

    /**
     * Decodes the index that {@code trailer} points at. Entries carry only what the index stores (offset, kind,
     * lane, seq, count, timestamps); the reader checks them against the chunk headers.
     *
     * @throws dev.dfx.error.BadInputException on an index magic, count or checksum that does not match the trailer,
     *                                         or chunk offsets that are not ascending inside the chunk area
     */
    static List<ChunkInfo> entries(MemorySegment file, Trailer trailer, long firstChunk, Path path) {
        long at = trailer.indexOffset();
        long length = ChunkFormat.INDEX_HEADER_SIZE + trailer.chunkCount() * ChunkFormat.INDEX_ENTRY_SIZE;
        if (file.get(U64, at) != ChunkFormat.INDEX_MAGIC || file.get(U64, at + INDEX_COUNT) != trailer.chunkCount()) {
            throw bad(path, at, "expected a chunk index (magic \"DFXINDEX\") of " + trailer.chunkCount()
                    + " entries, as the trailer says");
        }
        int stored = file.get(U32, file.byteSize() - ChunkFormat.TRAILER_SIZE + TRAILER_INDEX_CRC);
        int computed = ChunkFormat.crc32c(file.asSlice(at, length));
        if (stored != computed) {
            throw bad(path, at, "chunk index checksum mismatch (stored " + ChunkFormat.hex(stored) + ", computed "
                    + ChunkFormat.hex(computed) + ")");
        }
        List<ChunkInfo> out = new ArrayList<>(Math.toIntExact(trailer.chunkCount()));
        long previousEnd = firstChunk;
        for (long e = at + ChunkFormat.INDEX_HEADER_SIZE; e < at + length; e += ChunkFormat.INDEX_ENTRY_SIZE) {
            long offset = file.get(U64, e + ENTRY_OFFSET);
            if (offset < previousEnd || offset % 8 != 0 || offset > at - ChunkFormat.CHUNK_HEADER_SIZE) {
                throw bad(path, e, "chunk index entry points at offset " + offset + ", expected an 8-aligned chunk"
                        + " between " + previousEnd + " and the index at " + at);
            }
            out.add(new ChunkInfo(offset, ChunkFormat.u16(file, e + ENTRY_KIND), file.get(U32, e + ENTRY_LANE),
                    file.get(U64, e + ENTRY_SEQ), file.get(U32, e + ENTRY_RECORD_COUNT), 0,
                    file.get(U64, e + ENTRY_FIRST_TIMESTAMP), file.get(U64, e + ENTRY_LAST_TIMESTAMP), 0, 0, 0));
            previousEnd = offset + ChunkFormat.CHUNK_HEADER_SIZE;
        }
        return out;
    }
}
