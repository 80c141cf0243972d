package dev.dfx.chunk;

import static dev.dfx.chunk.ChunkFormat.bad;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds and validates every chunk of a mapped chunk file: through the index when the trailer is valid, else by a
 * sequential scan that keeps each complete chunk and stops at a torn tail. Every chunk's header and payload checksum
 * is verified. Stateless; thread-safe.
 */
final class ChunkLoader {
    private ChunkLoader() {
    }

    /** The chunks in file order, and how the file was recovered (null when it was read through its index). */
    record Loaded(List<ChunkInfo> chunks, Recovery recovery) {
    }

    /** @throws dev.dfx.error.BadInputException on any defect that is not a torn tail, naming the byte offset */
    static Loaded load(MemorySegment file, ChunkFileHeader header, Path path) {
        ChunkIndex.Lookup lookup = ChunkIndex.trailer(file, header.length(), path);
        if (lookup.trailer() == null) {
            return scan(file, header, path, lookup.whyAbsent());
        }
        ChunkIndex.Trailer trailer = lookup.trailer();
        List<ChunkInfo> chunks = new ArrayList<>();
        long previousEnd = header.length();
        for (ChunkInfo entry : ChunkIndex.entries(file, trailer, header.length(), path)) {
            if (entry.offset() < previousEnd) {
                throw bad(path, entry.offset(), "chunk listed in the index starts inside the chunk before it, which"
                        + " ends at offset " + previousEnd);
            }
            ChunkInfo c = ChunkHeader.decode(file, entry.offset(), header, path);
            if (c.kind() != entry.kind() || c.lane() != entry.lane() || c.seq() != entry.seq()
                    || c.recordCount() != entry.recordCount() || c.firstTimestamp() != entry.firstTimestamp()
                    || c.lastTimestamp() != entry.lastTimestamp()) {
                throw bad(path, c.offset(), "chunk header disagrees with its index entry (header " + describe(c)
                        + ", index " + describe(entry) + ")");
            }
            if (c.end() > trailer.indexOffset()) {
                throw bad(path, c.offset(), "chunk of " + c.storedLength() + " payload bytes runs past the chunk"
                        + " index at offset " + trailer.indexOffset());
            }
            verifyPayload(file, c, path);
            chunks.add(c);
            previousEnd = c.end();
        }
        return new Loaded(chunks, null);
    }

    private static Loaded scan(MemorySegment file, ChunkFileHeader header, Path path, String whyNoIndex) {
        List<ChunkInfo> chunks = new ArrayList<>();
        long size = file.byteSize();
        long at = header.length();
        String stop = null;
        while (at < size) {
            if (size - at >= 8 && file.get(ChunkFormat.U64, at) == ChunkFormat.INDEX_MAGIC) {
                stop = "an unfinished chunk index starts here";
                break;
            }
            if (size - at < ChunkFormat.CHUNK_HEADER_SIZE) {
                stop = "the file ends inside a chunk header";
                break;
            }
            ChunkInfo c = ChunkHeader.decode(file, at, header, path);
            if (c.end() > size) {
                stop = "the file ends inside the payload of the chunk starting here";
                break;
            }
            verifyPayload(file, c, path);
            chunks.add(c);
            at = c.end();
        }
        String reason = whyNoIndex + "; read " + chunks.size() + " complete chunks by sequential scan"
                + (stop == null ? "" : ", stopped at byte offset " + at + ": " + stop);
        return new Loaded(chunks, new Recovery(at, size - at, reason));
    }

    /** Checks the payload's CRC32C and, for a zero-block chunk, that its bitmap matches its length. */
    private static void verifyPayload(MemorySegment file, ChunkInfo c, Path path) {
        MemorySegment stored = file.asSlice(c.payloadOffset(), c.storedLength());
        int computed = ChunkFormat.crc32c(stored);
        if (computed != c.payloadCrc()) {
            throw bad(path, c.payloadOffset(), "chunk payload checksum mismatch (kind " + c.kind() + " lane "
                    + Integer.toUnsignedString(c.lane()) + " seq " + Long.toUnsignedString(c.seq()) + ": stored "
                    + ChunkFormat.hex(c.payloadCrc()) + ", computed " + ChunkFormat.hex(computed) + ")");
        }
        String wrong = c.zeroBlocks() ? ZeroBlocks.check(stored, c.payloadLength()) : null;
        if (wrong != null) {
            throw bad(path, c.payloadOffset(), wrong);
        }
    }

    private static String describe(ChunkInfo c) {
        return "kind " + c.kind() + " lane " + Integer.toUnsignedString(c.lane()) + " seq "
                + Long.toUnsignedString(c.seq()) + " count " + c.recordCount() + " time "
                + Long.toUnsignedString(c.firstTimestamp()) + ".." + Long.toUnsignedString(c.lastTimestamp());
    }
}
