package dev.dfx.chunk;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * A buffer kind: what the records of one kind of buffer are (docs/glossary.md: a buffer, a lane and a pool each
 * hold one kind): its id in the subsystem's kind table, its name, its fixed record size and where each record
 * keeps its primary timestamp (unsigned nanoseconds, little-endian), if it has one. The record schemas name their
 * kinds with it ({@code dev.dfx.record}, e.g. {@code CoreTaskRecord.KIND}) and a chunk file's kind table stores one
 * entry per kind. A kind without a timestamp has width 0 (and offset 0), in memory as in the file: {@link #untimed}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id              subsystem-local kind id, 0..65535
 * @param name            kind name, 1..255 bytes of UTF-8 (e.g. {@code "core-task"})
 * @param recordSize      bytes per record, 1..2^30
 * @param timestampOffset byte offset of the timestamp field inside a record; 0 when {@code timestampWidth} is 0
 * @param timestampWidth  0 (no timestamp), 4 (u32 ns) or 8 (u64 ns)
 */
public record BufferKind(int id, String name, int recordSize, int timestampOffset, int timestampWidth) {
    /** Largest kind id: ids are u16 in the kind table and in each chunk header. */
    public static final int MAX_ID = 0xFFFF;

    /** @throws IllegalArgumentException when a field is out of the ranges above */
    public BufferKind {
        if (id < 0 || id > MAX_ID) {
            throw new IllegalArgumentException("kind id " + id + " outside 0..65535");
        }
        int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (nameBytes < 1 || nameBytes > ChunkFormat.MAX_NAME_BYTES) {
            throw new IllegalArgumentException("kind name '" + name + "' must be 1..255 bytes of UTF-8");
        }
        if (recordSize < 1 || recordSize > ChunkFormat.MAX_RECORD_SIZE) {
            throw new IllegalArgumentException("kind " + name + ": record size " + recordSize + " outside 1..2^30");
        }
        if (timestampWidth != 0 && timestampWidth != 4 && timestampWidth != 8) {
            throw new IllegalArgumentException("kind " + name + ": timestamp width " + timestampWidth
                    + " is not 0, 4 or 8");
        }
        if (timestampWidth == 0 ? timestampOffset != 0
                : timestampOffset < 0 || (long) timestampOffset + timestampWidth > recordSize) {
            throw new IllegalArgumentException("kind " + name + ": timestamp field at " + timestampOffset
                    + " width " + timestampWidth + " does not fit a " + recordSize + "-byte record");
        }
    }

    /**
     * @param id              subsystem-local kind id, 0..65535
     * @param name            kind name, 1..255 bytes of UTF-8
     * @param recordSize      bytes per record
     * @param timestampOffset byte offset of the u64 nanosecond timestamp inside a record
     * @return a kind whose records carry a u64 nanosecond timestamp at {@code timestampOffset}
     * @throws IllegalArgumentException when a value is out of range
     */
    public static BufferKind timed(int id, String name, int recordSize, int timestampOffset) {
        return new BufferKind(id, name, recordSize, timestampOffset, 8);
    }

    /**
     * @param id         subsystem-local kind id, 0..65535
     * @param name       kind name, 1..255 bytes of UTF-8
     * @param recordSize bytes per record
     * @return a kind whose records have no timestamp (not time-ordered by the merge)
     * @throws IllegalArgumentException when a value is out of range
     */
    public static BufferKind untimed(int id, String name, int recordSize) {
        return new BufferKind(id, name, recordSize, 0, 0);
    }

    /** @return whether records of this kind have a primary timestamp */
    public boolean hasTimestamp() {
        return timestampWidth != 0;
    }

    /**
     * Reads the timestamp of the record at {@code recordOffset} in {@code records}.
     *
     * @param records      records of this kind, little-endian
     * @param recordOffset byte offset of the record in {@code records}
     * @return unsigned nanoseconds (a u32 field is zero-extended); 0 when the kind has no timestamp
     * @throws IndexOutOfBoundsException when the record is not inside {@code records}
     */
    public long timestamp(MemorySegment records, long recordOffset) {
        return switch (timestampWidth) {
            case 8 -> records.get(ChunkFormat.U64, recordOffset + timestampOffset);
            case 4 -> ChunkFormat.u32(records, recordOffset + timestampOffset);
            default -> 0L;
        };
    }
}
