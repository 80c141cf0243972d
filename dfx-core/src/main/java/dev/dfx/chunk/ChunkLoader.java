package dev.dfx.chunk;

import static dev.dfx.chunk.ChunkFormat.bad;

import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Finds and validates every chunk of a mapped chunk file: through the index when the trailer is valid, else by a
 * sequential scan that keeps each complete chunk and stops at a torn tail. Every chunk's header and payload checksum
 * is verified. Strict (no damage sink): any defect but a torn tail is a {@link BadInputException}. Lenient: a bad
 * chunk is skipped and reported ({@link ChunkDamage}), an unusable index makes a scan, and a scan that meets an
 * unreadable chunk header looks for the next valid one. Stateless; thread-safe.
 */
final class ChunkLoader {
    private ChunkLoader() {
    }

    /** The chunks in file order, and how the file was recovered (null when it was read through its index). */
    record Loaded(List<ChunkInfo> chunks, Recovery recovery) {
    }

    /**
     * @param damage null for strict reading, else receives each defect that was skipped
     * @throws BadInputException (strict) on any defect that is not a torn tail, naming the byte offset
     */
    static Loaded load(MemorySegment file, ChunkFileHeader header, Path path, Consumer<ChunkDamage> damage) {
        long size = file.byteSize();
        ChunkIndex.Lookup lookup;
        try {
            lookup = ChunkIndex.trailer(file, header.length(), path);
        } catch (BadInputException e) {
            unusableIndex(path, size - ChunkFormat.TRAILER_SIZE, e, damage);
            return scan(file, header, path, "chunk index unusable", size, damage);
        }
        if (lookup.trailer() == null) {
            return scan(file, header, path, lookup.whyAbsent(), size, damage);
        }
        List<ChunkInfo> entries;
        try {
            entries = ChunkIndex.entries(file, lookup.trailer(), header.length(), path);
        } catch (BadInputException e) {
            long at = lookup.trailer().indexOffset();
            unusableIndex(path, at, e, damage);
            return scan(file, header, path, "chunk index unusable", at, damage);
        }
        long indexOffset = lookup.trailer().indexOffset();
        List<ChunkInfo> chunks = new ArrayList<>();
        long previousEnd = header.length();
        for (ChunkInfo entry : entries) {
            String skip = "skipped the chunk (kind " + entry.kind() + " lane " + Integer.toUnsignedString(entry.lane())
                    + " seq " + Long.toUnsignedString(entry.seq()) + ", " + Count.of(entry.recordCount(), "record")
                    + ")";
            if (entry.offset() < previousEnd) {
                fail(path, entry.offset(), "chunk listed in the index starts inside the chunk before it, which ends"
                        + " at offset " + previousEnd, skip, entry.recordCount(), damage);
                continue;
            }
            ChunkInfo c;
            try {
                c = ChunkHeader.decode(file, entry.offset(), header, path);
            } catch (BadInputException e) {
                skip(path, e, skip, entry.offset(), entry.recordCount(), damage);
                continue;
            }
            if (c.kind() != entry.kind() || c.lane() != entry.lane() || c.seq() != entry.seq()
                    || c.recordCount() != entry.recordCount() || c.firstTimestamp() != entry.firstTimestamp()
                    || c.lastTimestamp() != entry.lastTimestamp()) {
                fail(path, c.offset(), "chunk header disagrees with its index entry (header " + describe(c)
                        + ", index " + describe(entry) + ")", skip, entry.recordCount(), damage);
                continue;
            }
            if (c.end() > indexOffset) {
                fail(path, c.offset(), "chunk of " + c.storedLength() + " payload bytes runs past the chunk index at"
                        + " offset " + indexOffset, skip, c.recordCount(), damage);
                continue;
            }
            if (payloadOk(file, c, path, damage)) {
                chunks.add(c);
            }
            previousEnd = c.end();
        }
        return new Loaded(chunks, null);
    }

    /** Strict: rethrows; lenient: reports that the chunks are read by a scan instead. */
    private static void unusableIndex(Path path, long offset, BadInputException e, Consumer<ChunkDamage> damage) {
        if (damage == null) {
            throw e;
        }
        damage.accept(new ChunkDamage(path, offset, e.getMessage() + "; read the chunks by a scan instead", 0));
    }

    /**
     * Reads chunks one after the other from the end of the file header up to {@code limit} (the file size, or
     * where a valid trailer says the index starts).
     */
    private static Loaded scan(MemorySegment file, ChunkFileHeader header, Path path, String whyNoIndex, long limit,
                               Consumer<ChunkDamage> damage) {
        List<ChunkInfo> chunks = new ArrayList<>();
        long size = limit;
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
            ChunkInfo c;
            try {
                c = ChunkHeader.decode(file, at, header, path);
            } catch (BadInputException e) {
                if (damage == null) {
                    throw e;
                }
                long next = nextHeader(file, header, path, at + 8, size);
                damage.accept(new ChunkDamage(path, at, e.getMessage() + "; skipped " + (next - at) + " bytes up to "
                        + (next < size ? "the next chunk at byte offset " + next : "the end of the file"), -1));
                at = next;
                continue;
            }
            if (c.end() > size) {
                stop = "the file ends inside the payload of the chunk starting here";
                break;
            }
            if (payloadOk(file, c, path, damage)) {
                chunks.add(c);
            }
            at = c.end();
        }
        String reason = whyNoIndex + "; read " + Count.of(chunks.size(), "complete chunk") + " by sequential scan"
                + (stop == null ? "" : ", stopped at byte offset " + at + ": " + stop);
        return new Loaded(chunks, new Recovery(at, file.byteSize() - at, reason));
    }

    /** @return the offset of the next 8-aligned valid chunk header or chunk index from {@code from}, else size */
    private static long nextHeader(MemorySegment file, ChunkFileHeader header, Path path, long from, long size) {
        for (long at = from; at + 8 <= size; at += 8) {
            if (file.get(ChunkFormat.U64, at) == ChunkFormat.INDEX_MAGIC) {
                return at;
            }
            if (size - at >= ChunkFormat.CHUNK_HEADER_SIZE && file.get(ChunkFormat.U32, at) == ChunkFormat.CHUNK_MAGIC) {
                try {
                    ChunkHeader.decode(file, at, header, path);
                    return at;
                } catch (BadInputException notAHeader) {
                    // payload bytes that happen to spell the magic; go on
                }
            }
        }
        return size;
    }

    /**
     * @return whether the payload checksum holds and, for a zero-block chunk, its bitmap matches its stored length; a
     *         defect throws (strict) or is reported and skipped
     */
    private static boolean payloadOk(MemorySegment file, ChunkInfo c, Path path, Consumer<ChunkDamage> damage) {
        MemorySegment stored = file.asSlice(c.payloadOffset(), c.storedLength());
        int computed = ChunkFormat.crc32c(stored);
        String skipped = "skipped the chunk's " + Count.of(c.recordCount(), "record");
        if (computed != c.payloadCrc()) {
            fail(path, c.payloadOffset(), "chunk payload checksum mismatch (kind " + c.kind() + " lane "
                    + Integer.toUnsignedString(c.lane()) + " seq " + Long.toUnsignedString(c.seq()) + ": stored "
                    + ChunkFormat.hex(c.payloadCrc()) + ", computed " + ChunkFormat.hex(computed) + ")", skipped,
                    c.recordCount(), damage);
            return false;
        }
        String wrong = c.zeroBlocks() ? ZeroBlocks.check(stored, c.payloadLength()) : null;
        if (wrong != null) {
            fail(path, c.payloadOffset(), wrong, skipped, c.recordCount(), damage);
            return false;
        }
        return true;
    }

    private static void fail(Path path, long offset, String what, String skipped, long records,
                             Consumer<ChunkDamage> damage) {
        BadInputException e = bad(path, offset, what);
        if (damage == null) {
            throw e;
        }
        damage.accept(new ChunkDamage(path, offset, e.getMessage() + "; " + skipped, records));
    }

    private static void skip(Path path, BadInputException e, String skipped, long offset, long records,
                             Consumer<ChunkDamage> damage) {
        if (damage == null) {
            throw e;
        }
        damage.accept(new ChunkDamage(path, offset, e.getMessage() + "; " + skipped, records));
    }

    private static String describe(ChunkInfo c) {
        return "kind " + c.kind() + " lane " + Integer.toUnsignedString(c.lane()) + " seq "
                + Long.toUnsignedString(c.seq()) + " count " + c.recordCount() + " time "
                + Long.toUnsignedString(c.firstTimestamp()) + ".." + Long.toUnsignedString(c.lastTimestamp());
    }
}
