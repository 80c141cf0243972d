package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * A reusable per-lane payload arena (the {@code args} subsystem's tensor bytes): off-heap bytes of a fixed size
 * written at a monotonic cursor ({@code position = cursor % size}), with two counters — published payloads
 * (producer: payloads whose records are in buffers handed to the host) and completed payloads (host: payloads it
 * has persisted, acknowledged from an {@link ArenaAckHook}).
 *
 * <p>Wrap rule (the reference's {@code ensure_dump_arena_capacity}): before a copy would land on the physical
 * wrap (start a new lap at position 0) or straddle it, the producer seals and publishes the lane's current
 * record buffer, takes a snapshot of {@code published}, and waits — one backstop deadline, the same degrade
 * rules as the gates, recorded as a stall of the lane — until {@code completed >= snapshot}; then it skips the
 * tail fragment so the payload starts at offset 0. Within a lap no wait is needed: at each wrap every earlier
 * payload was acknowledged. If the wait fails, the payload is dropped (offset -1) but its record is still
 * claimed, so the metadata survives.
 *
 * <p>Thread-safety: {@link #claim}, {@link #lastPayloadOffset()} — the lane's producer thread only.
 * {@link #publishedPayloadCount()}, {@link #acknowledge}, {@link #read} — host threads (typically the ack
 * hook and the collector of this lane); counters may be read from any thread.
 *
 * <p>Ordering: payload bytes are written before the record's buffer is published (release); the host reads
 * them after receiving that buffer. {@link #acknowledge} releases {@code completed};
 * the producer acquires it before reusing any byte.
 */
public final class PayloadArena {
    private static final long PUBLISHED = 0;
    private static final long COMPLETED = RegionLayout.PAD;
    private static final long DROPPED = 2L * RegionLayout.PAD;
    private static final long COUNTER_BYTES = 3L * RegionLayout.PAD;

    private final int lane;
    private final long size;
    private final MemorySegment counters;
    private final MemorySegment bytes;
    private final boolean copyMode;
    private final LaneWriter writer;
    private final Gate gate;
    private final GateCondition acknowledged = this::acknowledged;

    private long cursor;
    private long pending;
    private long published;
    private long target;
    private long dropped;
    private long lastPayloadOffset = -1;

    PayloadArena(int lane, long size, MemorySegment memory, boolean copyMode, LaneWriter writer, Gate gate) {
        this.lane = lane;
        this.size = size;
        this.counters = memory.asSlice(0, COUNTER_BYTES);
        this.bytes = memory.asSlice(COUNTER_BYTES, size);
        this.copyMode = copyMode;
        this.writer = writer;
        this.gate = gate;
    }

    /** @return bytes of memory an arena of {@code size} bytes needs (counters first) */
    static long footprint(long size) {
        return COUNTER_BYTES + size;
    }

    /** @return the lane this arena belongs to */
    public int lane() {
        return lane;
    }

    /** @return arena size in bytes */
    public long size() {
        return size;
    }

    /**
     * Copies a payload into the arena, then claims the record that refers to it (producer thread). Write the
     * record at the returned offset of {@link LaneWriter#segment()} with {@link #lastPayloadOffset()} in it.
     *
     * @param payload the payload bytes, at most {@link #size()}
     * @return the record's offset in the lane writer's segment, or -1 when the record was dropped (counted)
     * @throws IllegalArgumentException when the payload is larger than the arena (truncate it first)
     */
    public long claim(MemorySegment payload) {
        long n = payload.byteSize();
        if (n > size) {
            throw new IllegalArgumentException("payload of " + n + " bytes exceeds lane " + lane + "'s arena of "
                    + size + " bytes");
        }
        long offset = reserve(n);
        long record = writer.claim();
        if (record < 0) {
            lastPayloadOffset = -1;
            return -1;
        }
        if (offset >= 0) {
            MemorySegment.copy(payload, 0, bytes, offset % size, n);
            pending++;
        }
        lastPayloadOffset = offset;
        return record;
    }

    /** @return the monotonic arena offset of the payload of the last {@link #claim}, or -1 if it was dropped */
    public long lastPayloadOffset() {
        return lastPayloadOffset;
    }

    /** Returns the monotonic offset for {@code n} bytes, waiting at a wrap; -1 when the payload must drop. */
    private long reserve(long n) {
        long pos = cursor % size;
        boolean wraps = n > 0 && ((cursor > 0 && pos == 0) || pos + n > size);
        if (!wraps) {
            long at = cursor;
            cursor += n;
            return at;
        }
        writer.flush();  // seal: the payloads of the current buffer become published
        target = published;
        if (gate.pass(acknowledged, DropCause.DEGRADED) != null) {
            dropped++;
            Mem.setLongOpaque(counters, DROPPED, dropped);
            return -1;
        }
        long at = pos == 0 ? cursor : cursor + (size - pos);  // skip the tail fragment
        cursor = at + n;
        return at;
    }

    private boolean acknowledged() {
        return Mem.getLongAcquire(counters, COMPLETED) >= target;
    }

    void onBufferPublished() {
        if (pending > 0) {
            published += pending;
            pending = 0;
            Mem.setLongRelease(counters, PUBLISHED, published);
        }
    }

    void onBufferDropped() {
        pending = 0;  // their records are gone, so the host will never persist those payloads
    }

    /** @return payloads whose records were handed to the host (acquire); any thread */
    public long publishedPayloadCount() {
        return Mem.getLongAcquire(counters, PUBLISHED);
    }

    /** @return payloads the host has acknowledged; any thread */
    public long completedPayloadCount() {
        return Mem.getLongAcquire(counters, COMPLETED);
    }

    /** @return payloads dropped because a wrap wait failed; any thread */
    public long droppedPayloads() {
        return Mem.getLongOpaque(counters, DROPPED);
    }

    /**
     * Host acknowledgement: every payload up to this count has been persisted (release). Call from the
     * {@link ArenaAckHook}.
     *
     * @param completed payloads persisted so far, between the current completed count and
     *                  {@link #publishedPayloadCount()}
     * @throws IllegalArgumentException when the count goes backwards or past what was published
     */
    public void acknowledge(long completed) {
        long now = completedPayloadCount();
        long pub = publishedPayloadCount();
        if (completed < now || completed > pub) {
            throw new IllegalArgumentException("lane " + lane + " arena: acknowledged count " + completed
                    + " must be between " + now + " (completed) and " + pub + " (published)");
        }
        Mem.setLongRelease(counters, COMPLETED, completed);
    }

    /**
     * Host-side reader of one payload, named by the offset and size its record carries.
     *
     * @param offset monotonic offset from {@link #lastPayloadOffset()} (as written in the record)
     * @param length payload size in bytes
     * @return the bytes, read-only; in COPY mode a copy, else a view valid until the payload is acknowledged
     * @throws IllegalArgumentException when the range is not a payload this arena could hold
     */
    public MemorySegment read(long offset, long length) {
        long pos = offset % size;
        if (offset < 0 || length < 0 || pos + length > size) {
            throw new IllegalArgumentException("lane " + lane + " arena: payload at offset " + offset + " of "
                    + length + " bytes does not fit an arena of " + size + " bytes without straddling its end");
        }
        MemorySegment view = bytes.asSlice(pos, length);
        if (copyMode) {
            MemorySegment copy = MemorySegment.ofArray(new byte[(int) length]);
            copy.copyFrom(view);
            return copy.asReadOnly();
        }
        return view.asReadOnly();
    }
}
