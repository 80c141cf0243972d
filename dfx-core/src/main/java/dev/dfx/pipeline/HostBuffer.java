package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * The host's handle on one buffer: which memory it is, and, while it travels collector ring -> collector ->
 * done queue -> recycled lane, which lane and sequence it last carried. Exactly one thread owns it at a time;
 * ownership passes through {@link SpscRing} (release/acquire), so plain fields suffice.
 */
final class HostBuffer implements DrainedBuffer {
    final int kind;
    final long handle;
    final int recordSize;
    /** The buffer as producers write it. */
    final MemorySegment device;
    /** The buffer as the host reads it: {@code device} in SHARED mode, a shadow in COPY mode. */
    final MemorySegment host;

    /** No lane holds the buffer: it is in the host's custody. */
    static final int NO_HOLDER = -1;

    /**
     * The lane the buffer was lent to through its free queue, or {@link #NO_HOLDER} while the host has it: a
     * producer may publish (and the host recover) only a buffer lent to its own lane, once.
     */
    int holder = NO_HOLDER;
    /** The lane whose ready queue this buffer was last drained from (with {@link #seq}), or -1: never drained. */
    int drainedFrom = -1;
    int lane;
    int producer;
    long seq;
    int count;
    /** The drain shard that drained it (where the replenisher routes it back from). */
    int origin;
    /** {@link System#nanoTime()} when a drain shard took it off a ready queue; 0 when not drained (W unmeasured). */
    long drainedAtNs;
    /** What the collector said of the records' non-zero blocks during its call, or null (see {@link #nonZeroBlocks}). */
    long[] nonZeroBitmap;
    int nonZeroBlockBytes;

    HostBuffer(int kind, long handle, int recordSize, MemorySegment device, MemorySegment host) {
        this.kind = kind;
        this.handle = handle;
        this.recordSize = recordSize;
        this.device = device;
        this.host = host;
    }

    void carry(int lane, int producer, long seq, int count, int origin) {
        this.lane = lane;
        this.producer = producer;
        this.seq = seq;
        this.count = count;
        this.origin = origin;
    }

    @Override
    public int kind() {
        return kind;
    }

    @Override
    public int lane() {
        return lane;
    }

    @Override
    public int producer() {
        return producer;
    }

    @Override
    public long seq() {
        return seq;
    }

    @Override
    public int recordCount() {
        return count;
    }

    @Override
    public int recordSize() {
        return recordSize;
    }

    @Override
    public MemorySegment records() {
        return host.asSlice(0, (long) count * recordSize).asReadOnly();
    }

    @Override
    public void nonZeroBlocks(long[] bitmap, int blockBytes) {
        nonZeroBitmap = bitmap;
        nonZeroBlockBytes = blockBytes;
    }

    /** Forgets what the collector said of the non-zero blocks: the next collector call says it anew. */
    void forgetNonZeroBlocks() {
        nonZeroBitmap = null;
        nonZeroBlockBytes = 0;
    }

    @Override
    public String toString() {
        return "buffer " + Long.toHexString(handle) + " lane " + lane + " seq " + seq + " count " + count;
    }
}
