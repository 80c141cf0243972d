package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * How host threads read and write the region (docs/pipeline.md, host rule 6). Every host access goes through
 * here: loads pull the field first (COPY) and stores write back exactly the field stored, checked against the
 * host-owned field set. SHARED and COPY run the same host code.
 *
 * <p>Ordering: {@code get*Acquire} pairs with the producer's release of the same field; {@code set*Release}
 * publishes every earlier host store (including plain {@link #setLong}) to a producer that acquires the field.
 * Thread-safe for distinct fields; each field has one host writer by construction.
 */
sealed interface HostTransport permits SharedTransport, CopyTransport {
    /** @return the memory host code reads after pulling: the region (SHARED) or its shadow (COPY) */
    MemorySegment view();

    long getLongAcquire(long offset);

    int getIntAcquire(long offset);

    /** Stats read of a producer-owned counter: atomic, no ordering. */
    long getLongOpaque(long offset);

    /** Stats read of a producer-owned flag: atomic, no ordering. */
    int getIntOpaque(long offset);

    /** Pulls {@code length} bytes into the view; call after the acquire that made them valid. */
    void pull(long offset, long length);

    /** Pulls the first {@code bytes} of a buffer into its host copy (no-op in SHARED). */
    void pullBuffer(HostBuffer buffer, long bytes);

    /**
     * Writes zeros over the first {@code bytes} of a buffer as producers see it (a device memset in COPY mode). Only
     * for a buffer in the host's custody (drained, not yet back in a free queue): its bytes are then host-owned.
     * Both modes write the device memory directly; the shadow is refilled by the next {@link #pullBuffer}.
     */
    default void clearBuffer(HostBuffer buffer, long bytes) {
        buffer.device.asSlice(0, bytes).fill((byte) 0);
    }

    /**
     * As {@link #clearBuffer}, but writes zeros only over the blocks {@code bitmap} marks (bit {@code i % 64} of word
     * {@code i / 64} for bytes {@code i * blockBytes} up to the next block or {@code bytes}); runs of marked blocks
     * are cleared with one fill each. The caller checked that the bitmap covers {@code bytes}: an unmarked block
     * must already hold zeros.
     */
    default void clearBlocks(HostBuffer buffer, long bytes, long[] bitmap, int blockBytes) {
        MemorySegment device = buffer.device;
        for (int w = 0; w < bitmap.length; w++) {
            long word = bitmap[w];
            while (word != 0) {
                int first = Long.numberOfTrailingZeros(word);
                int run = Long.numberOfTrailingZeros(~(word >>> first));  // 64 when every bit from first is set
                long from = ((long) w * 64 + first) * blockBytes;
                if (from >= bytes) {
                    return;
                }
                device.asSlice(from, Math.min((long) run * blockBytes, bytes - from)).fill((byte) 0);
                word = first + run >= 64 ? 0 : word & (-1L << (first + run));
            }
        }
    }

    /**
     * Compare-and-set of a field both sides move only by compare-and-set (a lane's attach state), on the memory
     * producers see, in both modes: a CAS cannot roll back a producer's write, so it needs no host ownership.
     *
     * @return the value found (the swap happened when it equals {@code expected})
     */
    int compareAndExchangeInt(long offset, int expected, int value);

    /** Plain store of a host-owned field; made visible by a later release. */
    void setLong(long offset, long value);

    void setInt(long offset, int value);

    void setLongRelease(long offset, long value);

    void setIntRelease(long offset, int value);

    /**
     * Writes back {@code length} bytes of the view to the region as they are.
     *
     * @throws IllegalStateException when the range covers any byte the host does not own (a bulk write-back
     *                               would roll back producer-owned fields)
     */
    void writeBack(long offset, long length);
}
