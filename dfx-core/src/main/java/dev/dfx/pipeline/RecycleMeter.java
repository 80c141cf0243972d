package dev.dfx.pipeline;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Host-side flow of each buffer kind, measured per buffer (never per record, never on a producer thread): buffers
 * the drain shards took off ready queues, the host recycle latency W of each buffer (from the moment a drain shard
 * takes it off a ready queue to the moment the replenisher puts it back in a recycled lane), and the time collectors
 * spent on the kind's buffers. These are the λ and W of Little's law {@code L = λ·W} that the capacity audit
 * ({@code dev.dfx.audit}) reads.
 *
 * <p>Writers: drain shards ({@link #onDrained}, several host loops: atomic add), collector workers
 * ({@link #onCollected}, several workers: atomic add), the replenisher ({@link #onRecycled}, one thread: it is the only
 * writer of the recycle slots, so a release store of its own sum suffices). Readers on any thread see whole values;
 * a live snapshot is not atomic across slots.
 */
final class RecycleMeter {
    private final AtomicLongArray drained;
    private final AtomicLongArray recycled;
    private final AtomicLongArray recycleTotalNs;
    private final AtomicLongArray recycleMaxNs;
    private final AtomicLongArray collectNs;

    RecycleMeter(int kinds) {
        drained = new AtomicLongArray(kinds);
        recycled = new AtomicLongArray(kinds);
        recycleTotalNs = new AtomicLongArray(kinds);
        recycleMaxNs = new AtomicLongArray(kinds);
        collectNs = new AtomicLongArray(kinds);
    }

    /** A drain shard took one buffer of {@code kind} off a ready queue (any host thread). */
    void onDrained(int kind) {
        drained.getAndIncrement(kind);
    }

    /** A collector call on one buffer of {@code kind} took {@code ns} (any collector worker). */
    void onCollected(int kind, long ns) {
        collectNs.getAndAdd(kind, Math.max(0, ns));
    }

    /** One buffer of {@code kind} is back in a recycled lane {@code ns} after it was drained (replenisher only). */
    void onRecycled(int kind, long ns) {
        long w = Math.max(0, ns);
        recycled.setRelease(kind, recycled.getPlain(kind) + 1);
        recycleTotalNs.setRelease(kind, recycleTotalNs.getPlain(kind) + w);
        if (w > recycleMaxNs.getPlain(kind)) {
            recycleMaxNs.setRelease(kind, w);
        }
    }

    long drained(int kind) {
        return drained.get(kind);
    }

    long recycled(int kind) {
        return recycled.getAcquire(kind);
    }

    long recycleTotalNs(int kind) {
        return recycleTotalNs.getAcquire(kind);
    }

    long recycleMaxNs(int kind) {
        return recycleMaxNs.getAcquire(kind);
    }

    long collectNs(int kind) {
        return collectNs.get(kind);
    }
}
