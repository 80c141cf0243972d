package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * The producer side of one ready queue (producer -> host SPSC ring of 32-byte entries, indices stored wrapped,
 * one slot sacrificed; layout in {@link RegionLayout}). Shared by the lanes of one producer and used only by
 * that producer's thread; not thread-safe.
 *
 * <p>Ordering: {@link #ready()} acquires the host's head; {@link #push} writes the entry with plain stores, then
 * releases the tail — so the host, acquiring the tail, sees the whole entry and the buffer's records.
 */
final class ProducerQueue implements GateCondition {
    private final MemorySegment region;
    private final long base;
    private final int size;
    private final Doorbell drainShard;
    private int tail;
    private int headSeen;
    private long maxDepth;

    /** @param drainShard the doorbell of the loop running the drain shard that serves this queue, woken after each publish */
    ProducerQueue(MemorySegment region, RegionLayout layout, int producer, Doorbell drainShard) {
        this.region = region;
        this.base = layout.readyQueue(producer);
        this.size = layout.readyQueueSize();
        this.drainShard = drainShard;
    }

    private int next(int i) {
        return i + 1 == size ? 0 : i + 1;
    }

    /** @return true when the ring has room for one entry (acquires the host's head) */
    @Override
    public boolean ready() {
        headSeen = Mem.getIntAcquire(region, base + RegionLayout.RQ_HEAD);
        return next(tail) != headSeen;
    }

    /**
     * Publishes one full (or flushed) buffer. Call only right after {@link #ready()} returned true.
     *
     * @param count records in the buffer, {@code >= 1}
     */
    void push(int lane, int kind, long handle, long seq, int count) {
        long e = base + RegionLayout.RQ_ENTRIES + (long) RegionLayout.ENTRY_BYTES * tail;
        region.set(Mem.INT, e + RegionLayout.E_LANE, lane);
        region.set(Mem.INT, e + RegionLayout.E_KIND, kind);
        region.set(Mem.LONG, e + RegionLayout.E_HANDLE, handle);
        region.set(Mem.LONG, e + RegionLayout.E_SEQ, seq);
        region.set(Mem.INT, e + RegionLayout.E_COUNT, count);
        int t = next(tail);
        tail = t;
        Mem.setIntRelease(region, base + RegionLayout.RQ_TAIL, t);
        drainShard.wake();
        // Backlog right after this publish, against the head just acquired: the ready-queue watermark.
        long depth = Math.floorMod(t - headSeen, size);
        if (depth > maxDepth) {
            maxDepth = depth;
            Mem.setLongOpaque(region, base + RegionLayout.RQ_MAX_DEPTH, depth);
        }
    }
}
