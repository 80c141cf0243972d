package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * One buffer as a {@link Collector} sees it. Valid only during {@link Collector#accept}; not thread-safe
 * (it belongs to the collector thread for the duration of the call).
 */
public interface DrainedBuffer {
    /** @return the buffer kind, the index returned by {@link PipelineConfig.Builder#pool} */
    int kind();

    /** @return the lane that wrote it, the index returned by {@link PipelineConfig.Builder#lane} */
    int lane();

    /** @return the producer (writer thread, ready queue) of the lane */
    int producer();

    /** @return the per-lane buffer sequence number: 0, 1, 2, ... with no gaps unless the host saw corruption */
    long seq();

    /** @return records in the buffer, {@code 1..recordsPerBuffer} */
    int recordCount();

    /** @return bytes per record */
    int recordSize();

    /**
     * @return a read-only segment of {@code recordCount() * recordSize()} bytes: the records in the order the
     *         lane wrote them, each little-endian as its producer wrote it
     */
    MemorySegment records();

    /**
     * Tells the pipeline which blocks of {@link #records()} hold a non-zero byte, when the collector has looked
     * anyway (a chunk writer's zero-block scan). A zeroed pool ({@link PoolSpec#zeroed()}) then clears only those
     * blocks before the buffer goes back, instead of every record byte: for sparse records (the deps submit record,
     * about a tenth non-zero) most of the clearing. Ignored by other pools, and when the bitmap is too short for
     * the records or the block size is not positive (the whole records are cleared then). Optional; call it during
     * {@link Collector#accept}, at most once.
     *
     * @param bitmap     bit {@code i % 64} of word {@code i / 64} is set for block {@code i} (bytes
     *                   {@code i * blockBytes} up to the next block or the records' end) when that block holds a
     *                   non-zero byte; a set bit for a zero block is allowed (cleared anyway), a clear bit for a
     *                   non-zero block is not (the next producer would find stale bytes). Kept, not copied, until
     *                   the buffer is cleared: do not change it after the call
     * @param blockBytes bytes per block
     */
    default void nonZeroBlocks(long[] bitmap, int blockBytes) {
    }
}
