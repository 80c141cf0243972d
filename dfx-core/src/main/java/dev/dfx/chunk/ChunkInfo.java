package dev.dfx.chunk;

/**
 * One chunk as described by its header: where it is in the file and what it holds. Immutable and thread-safe.
 *
 * @param offset         file offset of the chunk header, bytes (a multiple of 8)
 * @param kind           subsystem-local kind id (see {@link BufferKind#id()})
 * @param lane           lane number within the kind, 0..2^32-1 stored as an int (read it with
 *                       {@link Integer#toUnsignedLong(int)} when it may exceed 2^31-1)
 * @param seq            the lane's buffer sequence number (unsigned)
 * @param recordCount    records in the chunk, 0..2^31-1
 * @param recordSize     bytes per record (equals the kind's)
 * @param firstTimestamp timestamp of the first record, unsigned ns; 0 when the kind has none or the chunk is empty
 * @param lastTimestamp  timestamp of the last record, unsigned ns; same rule
 * @param payloadCrc     CRC32C of the payload as stored
 * @param flags          chunk flags: 0, or {@link #ZERO_BLOCKS} (format version 2)
 * @param storedLength   payload bytes in the file: {@link #payloadLength()}, or the length of its zero-block encoding
 */
public record ChunkInfo(long offset, int kind, int lane, long seq, int recordCount, int recordSize,
                        long firstTimestamp, long lastTimestamp, int payloadCrc, int flags, long storedLength) {
    /** Chunk flag: the payload is stored zero-block encoded (format version 2; see {@code package-info.java}). */
    public static final int ZERO_BLOCKS = 1;

    /** A chunk whose payload is stored as it is ({@code flags} 0). */
    public ChunkInfo(long offset, int kind, int lane, long seq, int recordCount, int recordSize, long firstTimestamp,
                     long lastTimestamp, int payloadCrc) {
        this(offset, kind, lane, seq, recordCount, recordSize, firstTimestamp, lastTimestamp, payloadCrc, 0,
                (long) recordCount * recordSize);
    }

    /** @return file offset of the stored payload, bytes */
    public long payloadOffset() {
        return offset + ChunkFormat.CHUNK_HEADER_SIZE;
    }

    /** @return payload length in bytes as the records are: record count x record size */
    public long payloadLength() {
        return (long) recordCount * recordSize;
    }

    /** @return whether the payload is stored zero-block encoded */
    public boolean zeroBlocks() {
        return (flags & ZERO_BLOCKS) != 0;
    }

    /** @return file offset just past the chunk and its padding, where the next chunk (or the index) starts */
    public long end() {
        return payloadOffset() + ChunkFormat.align8(storedLength);
    }
}
