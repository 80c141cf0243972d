package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * A lane's running total of records counted ({@link RegionLayout#L_TOTAL}), as its producer stores it on every
 * claim: one naturally aligned 8-byte store into an 8-byte slice of the region, so that a reader on another thread
 * or in another process ({@code getLongAcquire} of the field, as {@link StatsReader} and the stop protocol read it)
 * sees one whole value that was stored, never the halves of two. An access through an unaligned layout carries no
 * such promise (the memory-segment API guarantees atomic plain access only for aligned layouts at aligned
 * addresses), and the slice's own bounds let the store check its offset against a constant 0 instead of against the
 * whole region.
 *
 * <p>Written by the lane's one producer thread (plain store, no fence: the host's acquire of the ready-queue tail
 * or of the attach state orders it where order matters); not thread-safe for several writers.
 */
final class LaneTotalField {
    private final MemorySegment field;

    /**
     * @param region the region that holds the lane
     * @param offset byte offset of the total in {@code region}; {@code region.address() + offset} a multiple of 8
     * @throws IllegalArgumentException when the field is not 8-byte aligned or not inside the region
     */
    LaneTotalField(MemorySegment region, long offset) {
        if (offset < 0 || offset > region.byteSize() - Long.BYTES || (region.address() + offset) % Long.BYTES != 0) {
            throw new IllegalArgumentException("lane total at byte " + offset + " of a region of " + region.byteSize()
                    + " bytes at address " + region.address() + ": expected an 8-byte aligned field inside it");
        }
        this.field = region.asSlice(offset, Long.BYTES, Long.BYTES);
    }

    /** Stores {@code total} (little-endian) as one aligned 8-byte store. */
    void store(long total) {
        field.set(Mem.LONG, 0, total);
    }
}
