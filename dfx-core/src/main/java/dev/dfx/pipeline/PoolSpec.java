package dev.dfx.pipeline;

/**
 * One buffer kind of a pipeline: its records and how many buffers each lane of this kind gets.
 *
 * <p>A buffer holds {@code recordsPerBuffer} records of {@code recordSize} bytes (so
 * {@code recordSize * recordsPerBuffer} bytes, at most {@link #MAX_BUFFER_BYTES}). Each lane of the kind
 * starts with {@code buffersPerLane} buffers and never holds more than that many at once (its current
 * buffer, its free queue and its published but not yet drained buffers); see {@link PipelineConfig}.
 *
 * <p>A <em>zeroed</em> pool hands lanes only buffers whose record slots are all zero bytes: buffers are allocated
 * zeroed, the collector side clears the records of each drained buffer (record count x record size bytes) after the
 * collector returned and before the buffer is recycled, and a lane that reuses a buffer whose publish failed clears
 * it first. A producer of sparse records (mostly zeros, like the 4672-byte deps record) then writes only the fields
 * that are not zero ({@link LaneWriter#zeroed()}). Immutable.
 *
 * @param name             what the buffers hold, e.g. {@code "core-task"}; not blank
 * @param recordSize       bytes per record, {@code >= 1}; a multiple of 8 keeps records aligned
 * @param recordsPerBuffer records per buffer, {@code >= 1}
 * @param buffersPerLane   buffers per lane at startup and the most a lane may hold, {@code >= 1}
 * @param zeroed           whether every slot a lane claims holds zeros (see above)
 */
public record PoolSpec(String name, int recordSize, int recordsPerBuffer, int buffersPerLane, boolean zeroed) {
    /** Largest buffer, in bytes (buffers are addressed with 32-bit offsets inside a block). */
    public static final long MAX_BUFFER_BYTES = 1L << 30;

    /** @throws IllegalArgumentException naming the field when a value is out of range */
    public PoolSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("pool name must not be blank");
        }
        if (recordSize < 1) {
            throw new IllegalArgumentException("pool " + name + ": recordSize must be >= 1 byte, got " + recordSize);
        }
        if (recordsPerBuffer < 1) {
            throw new IllegalArgumentException(
                    "pool " + name + ": recordsPerBuffer must be >= 1, got " + recordsPerBuffer);
        }
        if (buffersPerLane < 1) {
            throw new IllegalArgumentException("pool " + name + ": buffersPerLane must be >= 1, got " + buffersPerLane);
        }
        if ((long) recordSize * recordsPerBuffer > MAX_BUFFER_BYTES) {
            throw new IllegalArgumentException("pool " + name + ": buffer of " + recordsPerBuffer + " x " + recordSize
                    + " B exceeds " + MAX_BUFFER_BYTES + " bytes");
        }
    }

    /**
     * A pool whose buffers are not cleared between uses.
     *
     * @throws IllegalArgumentException naming the field when a value is out of range
     */
    public PoolSpec(String name, int recordSize, int recordsPerBuffer, int buffersPerLane) {
        this(name, recordSize, recordsPerBuffer, buffersPerLane, false);
    }

    /** @return the same pool, zeroed */
    public PoolSpec asZeroed() {
        return new PoolSpec(name, recordSize, recordsPerBuffer, buffersPerLane, true);
    }

    /** @return bytes per buffer, {@code recordSize * recordsPerBuffer} */
    public long bufferBytes() {
        return (long) recordSize * recordsPerBuffer;
    }
}
