package dev.dfx.chunk;

import java.lang.foreign.MemorySegment;

/**
 * Where a record of one kind can hold a non-zero byte, read from the record's own counts: for the sparse 4672-byte
 * deps submit record, its used explicit deps and tensor slots. The chunk writer's zero-block scan
 * ({@link ChunkWriter#append(int, int, long, MemorySegment, int, RecordSpans, java.util.function.ObjIntConsumer)})
 * then reads only those bytes of each record instead of all of them; every byte outside the spans must be zero, as
 * the record's format says of its unused fields (a writer that leaves a stale byte there has it stored as zero).
 *
 * <p>Implementations are stateless and thread-safe; they read only the record at {@code recordOffset}.
 */
@FunctionalInterface
public interface RecordSpans {
    /** Most spans one record may have; {@code into} holds twice as many ints. */
    int MAX_SPANS = 4;

    /**
     * Writes the record's spans into {@code into}: span {@code i} is bytes {@code into[2i]} (inclusive) to
     * {@code into[2i + 1]} (exclusive) of the record, in ascending order and not overlapping. Offsets outside
     * {@code 0..recordSize} are clamped by the caller, so a record with a wrong count is never read past its own
     * bytes.
     *
     * @param records      the records
     * @param recordOffset byte offset of the record in {@code records}
     * @param into         {@code 2 x} {@value #MAX_SPANS} ints
     * @return spans written, {@code 0..}{@value #MAX_SPANS}
     */
    int spans(MemorySegment records, long recordOffset, int[] into);
}
