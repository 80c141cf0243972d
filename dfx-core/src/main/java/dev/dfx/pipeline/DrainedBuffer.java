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
}
