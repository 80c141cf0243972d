package dev.dfx.trace;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.LaneSequence;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The records of one lane of a chunk file as a {@link MergeQueue}: the lane's chunks in seq order, records within a
 * chunk in order, each keyed by the timestamp field that the kind table names. The current record is
 * {@link #records()} at byte {@link #offset()}, {@link #recordSize()} bytes long; read it before the merge advances.
 *
 * <p>Not thread-safe (the merge's thread); no allocation per record. Valid while its {@link ChunkReader} is open.
 */
public final class ChunkLaneQueue implements MergeQueue {
    private final ChunkReader reader;
    private final BufferKind kind;
    private final int lane;
    private final ChunkInfo[] chunks;
    private final MemorySegment[] payloads;
    private final long recordSize;

    private int chunk = -1;
    private MemorySegment current;
    private long offset;
    private long end;
    private long timestamp;

    /**
     * @param reader the open chunk file
     * @param lane   one of its lanes; its kind must have a timestamp field
     * @throws IllegalArgumentException when the lane's kind has no timestamp field
     */
    public ChunkLaneQueue(ChunkReader reader, LaneSequence lane) {
        this.reader = reader;
        this.kind = reader.kind(lane.kind());
        if (!kind.hasTimestamp()) {
            throw new IllegalArgumentException("kind " + kind.name() + " has no timestamp field to merge by");
        }
        this.lane = lane.lane();
        List<ChunkInfo> cs = lane.chunks().stream().filter(c -> c.recordCount() > 0).toList();
        this.chunks = cs.toArray(ChunkInfo[]::new);
        this.payloads = cs.stream().map(reader::records).toArray(MemorySegment[]::new);
        this.recordSize = kind.recordSize();
        nextChunk();
    }

    @Override
    public boolean hasEntry() {
        return current != null;
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    @Override
    public void advance() {
        offset += recordSize;
        if (offset < end) {
            timestamp = kind.timestamp(current, offset);
        } else {
            nextChunk();
        }
    }

    private void nextChunk() {
        if (++chunk >= chunks.length) {
            current = null;
            return;
        }
        current = payloads[chunk];
        offset = 0;
        end = current.byteSize();
        timestamp = kind.timestamp(current, 0);
    }

    /** @return the current chunk's records (read-only, little-endian); null when the queue is exhausted */
    public MemorySegment records() {
        return current;
    }

    /** @return byte offset of the current record in {@link #records()} */
    public long offset() {
        return offset;
    }

    /** @return bytes per record */
    public int recordSize() {
        return (int) recordSize;
    }

    /** @return the current chunk (its seq, its first and last timestamp); null when exhausted */
    public ChunkInfo chunk() {
        return current == null ? null : chunks[chunk];
    }

    /** @return the lane's buffer kind */
    public BufferKind kind() {
        return kind;
    }

    /** @return the lane number within the kind */
    public int lane() {
        return lane;
    }

    /** @return the chunk file this lane is in */
    public ChunkReader reader() {
        return reader;
    }
}
