package dev.dfx.pipeline;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntToLongFunction;

/**
 * Host-side flow of each buffer kind, measured per buffer (never per record, never on a producer thread): buffers
 * the drain shards took off ready queues, the host recycle latency W of each buffer (from the moment a drain shard
 * takes it off a ready queue to the moment the replenisher puts it back in a recycled lane), and the time collectors
 * spent on the kind's buffers. These are the λ and W of Little's law {@code L = λ·W} that the capacity audit
 * ({@code dev.dfx.audit}) reads, and the peak in flight: the most buffers one lane had out at once (taken from its
 * free queue, not yet back in a recycled lane).
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
    private final AtomicLongArray peakInFlight;
    /** Per lane: its buffers back in a recycled lane so far (replenisher only). */
    private final long[] returned;
    /** Per lane: buffers it has taken from its free queue so far (the free queue's head, producer-owned). */
    private final IntToLongFunction taken;

    /**
     * @param kinds buffer kinds
     * @param lanes lanes
     * @param taken lane -> buffers the lane has taken from its free queue so far (an acquire read of its head)
     */
    RecycleMeter(int kinds, int lanes, IntToLongFunction taken) {
        drained = new AtomicLongArray(kinds);
        recycled = new AtomicLongArray(kinds);
        recycleTotalNs = new AtomicLongArray(kinds);
        recycleMaxNs = new AtomicLongArray(kinds);
        collectNs = new AtomicLongArray(kinds);
        peakInFlight = new AtomicLongArray(kinds);
        returned = new long[lanes];
        this.taken = taken;
    }

    /** A drain shard took one buffer of {@code kind} off a ready queue (any host thread). */
    void onDrained(int kind) {
        drained.getAndIncrement(kind);
    }

    /** A collector call on one buffer of {@code kind} took {@code ns} (any collector worker). */
    void onCollected(int kind, long ns) {
        collectNs.getAndAdd(kind, Math.max(0, ns));
    }

    /**
     * The buffers {@code lane} has out now (taken from its free queue, not yet back in a recycled lane); replenisher
     * only. Sampled before a buffer is offered back: once offered, a drain shard may hand it to the lane's free queue
     * and the producer take it before {@link #onRecycled} runs, which would count that buffer twice.
     */
    long outstanding(int lane) {
        return taken.applyAsLong(lane) - returned[lane];
    }

    /**
     * One buffer of {@code lane} (of {@code kind}) is back in a recycled lane {@code ns} after it was drained
     * (replenisher only), with the lane's buffers out sampled just before it was offered ({@link #outstanding}): out
     * only grows (takes) between returns, so the largest sample is the peak.
     */
    void onRecycled(int kind, int lane, long ns, long out) {
        long w = Math.max(0, ns);
        recycled.setRelease(kind, recycled.getPlain(kind) + 1);
        recycleTotalNs.setRelease(kind, recycleTotalNs.getPlain(kind) + w);
        if (w > recycleMaxNs.getPlain(kind)) {
            recycleMaxNs.setRelease(kind, w);
        }
        returned[lane]++;
        if (out > peakInFlight.getPlain(kind)) {
            peakInFlight.setRelease(kind, out);
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

    long peakInFlight(int kind) {
        return peakInFlight.getAcquire(kind);
    }

    long collectNs(int kind) {
        return collectNs.get(kind);
    }
}
