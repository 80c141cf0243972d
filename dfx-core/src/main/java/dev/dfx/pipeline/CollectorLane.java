package dev.dfx.pipeline;

import dev.dfx.error.Count;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The collector side of one lane: its <em>collector ring</em> (drain shard -> collector SPSC ring of drained
 * buffers), the calls of the {@link Collector} on them, the count of records collected (or lost, if the collector
 * throws), the clearing of a zeroed pool's records ({@link PoolSpec#zeroed()}), and the lane's done queue
 * (collector -> replenisher SPSC ring). After the replenisher has stopped, a buffer that finds the done queue full is
 * parked (the records were already counted; the buffer is freed with the region).
 *
 * <p>One collector lane per producer lane, so a slow or wedged collector call holds back only its own lane: the
 * drain shard hands each buffer to its lane's collector ring and goes on sweeping, and any worker of a
 * {@link CollectorPool} may serve any lane, but only while it holds that lane's claim, so calls for one lane never
 * overlap and its buffers reach the collector in seq order. The claim's CAS (acquire) and release hand the consumer
 * side of the collector ring and the producer side of the done queue from one worker to the next. While a worker is
 * inside the collector, {@link #inCallSinceNs()} says since when, so the pool can tell a wedged call.
 *
 * <p>Backlog: buffers handed in and not yet delivered (waiting in the ring or inside a call). The drain shard does not
 * refill the lane's free queue while the backlog is at {@link #limit()} (twice the pool's buffers per lane, plus
 * {@value #BACKLOG_SLACK}): a lane whose collector is slow then waits at its own pop gate instead of growing the pool
 * without bound, and its collector ring, sized for the limit plus the buffers the lane itself may hold, never fills.
 *
 * <p>Thread-safety: {@link #handIn} on the drain shard's thread (the ring's only producer; at stop, the stopping
 * thread after the drain shard's final pass); {@link #tryClaim}, {@link #release}, {@link #hasWork},
 * {@link #backlog}, {@link #inCallSinceNs}, {@link #abandon} and the statistics from any thread; {@link #drain},
 * {@link #pollOnce()} only while holding the claim.
 */
final class CollectorLane {
    /**
     * Buffers a lane's collector may fall behind by, beyond twice the lane's pool share, before the lane's refills
     * stop: the slack the collector ring had when it was one per drain shard, so a collector descheduled for a while
     * on a loaded machine makes no producer wait sooner than before.
     */
    static final int BACKLOG_SLACK = 16;

    private static final VarHandle CLAIM;
    private static final VarHandle CALL_SINCE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIM = l.findVarHandle(CollectorLane.class, "claim", int.class);
            CALL_SINCE = l.findVarHandle(CollectorLane.class, "callSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int lane;
    private final int limit;
    private final SpscRing<HostBuffer> collectorRing;
    private final SpscRing<HostBuffer> done;
    private final Collector collector;
    private final HostLedger ledger;
    private final RecycleMeter meter;
    private final HostTransport transport;
    private final boolean zeroed;
    private final ErrorLog errors;
    private final Queue<HostBuffer> parked = new ConcurrentLinkedQueue<>();
    private final Doorbell replenisher;
    private final Doorbell drainShard;
    private final Doorbell collectors;
    @SuppressWarnings("unused") // through CLAIM
    private volatile int claim;
    @SuppressWarnings("unused") // through CALL_SINCE
    private volatile long callSince;
    // Each counter has one writer at a time (the drain shard, or the claim holder), which stores its own sum with
    // release; readers acquire.
    /** Buffers handed in. */
    private final AtomicLong handedIn = new AtomicLong();
    /** Buffers whose collector call returned. */
    private final AtomicLong delivered = new AtomicLong();
    /** Summed collector call time of this lane, ns. */
    private final AtomicLong callNs = new AtomicLong();
    /** The longest single collector call of this lane, ns. */
    private final AtomicLong longestCallNs = new AtomicLong();
    private volatile boolean replenisherGone;
    private volatile boolean abandoned;

    /**
     * @param lane           the producer lane this serves
     * @param buffersPerLane the lane's pool share: the most buffers it holds besides its backlog
     * @param meter       sums the time of each collector call per kind (the host's service time)
     * @param zeroed      whether the lane's buffers are cleared before they go back (see {@link PoolSpec#zeroed()})
     * @param replenisher doorbell of the loop that runs the replenisher, rung after each buffer handed back
     * @param drainShard  doorbell of the loop that runs the lane's drain shard, rung when the backlog falls below the
     *                    limit (the shard may refill the lane again)
     * @param collectors  doorbell of the collector workers, rung after each hand-in
     */
    CollectorLane(int lane, int buffersPerLane, Collector collector, HostLedger ledger, RecycleMeter meter,
            HostTransport transport, boolean zeroed, Doorbell replenisher, Doorbell drainShard, Doorbell collectors,
            ErrorLog errors) {
        this.lane = lane;
        this.limit = 2 * buffersPerLane + BACKLOG_SLACK;
        // the backlog grows past the limit by at most the buffers the lane held when its last refill was allowed,
        // and stop may add the recovered buffer
        this.collectorRing = new SpscRing<>(limit + buffersPerLane + 2);
        this.done = new SpscRing<>(limit + buffersPerLane + 2);
        this.collector = collector;
        this.ledger = ledger;
        this.meter = meter;
        this.transport = transport;
        this.zeroed = zeroed;
        this.replenisher = replenisher;
        this.drainShard = drainShard;
        this.collectors = collectors;
        this.errors = errors;
    }

    /** @return the producer lane */
    int lane() {
        return lane;
    }

    /** @return the backlog at which the drain shard stops refilling the lane */
    int limit() {
        return limit;
    }

    /** @return the done queue (collector -> replenisher) */
    SpscRing<HostBuffer> done() {
        return done;
    }

    /**
     * Hands one drained buffer to the lane's collector ring and wakes the workers (drain shard's thread).
     *
     * @return false when the ring is full: only a producer that published more buffers than its lane holds (a
     *         corrupt or hostile region) gets there; the buffer is then not delivered
     */
    boolean handIn(HostBuffer b) {
        if (!collectorRing.offer(b)) {
            return false;
        }
        handedIn.setRelease(handedIn.getPlain() + 1);
        collectors.wake();
        return true;
    }

    /** @return buffers handed in and not yet delivered (any thread; a snapshot) */
    long backlog() {
        return handedIn.getAcquire() - delivered.getAcquire();
    }

    /** @return whether the backlog is at the limit, so the lane's free queue must not be refilled now */
    boolean atLimit() {
        return backlog() >= limit;
    }

    /** @return whether a drained buffer is waiting (any thread; a snapshot) */
    boolean hasWork() {
        return !collectorRing.isEmpty() && !abandoned;
    }

    /** @return true when the caller now holds the claim (acquire); then it must {@link #release()} it */
    boolean tryClaim() {
        return CLAIM.compareAndSet(this, 0, 1);
    }

    /** Gives the claim back (release): what the holder did happens-before the next holder's work. */
    void release() {
        CLAIM.setRelease(this, 0);
    }

    /**
     * @return {@link System#nanoTime()} when the current collector call began, or 0 outside a call; a reader that
     *         gets 0 after a call sees everything that call did (the collector's own stores and the lane's counts)
     */
    long inCallSinceNs() {
        return (long) CALL_SINCE.getVolatile(this);
    }

    /** @return summed time of this lane's collector calls so far, ns */
    long callNs() {
        return callNs.getAcquire();
    }

    /** @return the longest collector call of this lane so far (one still running counts up to now), ns */
    long longestCallNs() {
        long longest = longestCallNs.getAcquire();
        long since = inCallSinceNs();
        return since == 0 ? longest : Math.max(longest, System.nanoTime() - since);
    }

    /**
     * Claim holder: delivers up to {@code max} buffers.
     *
     * @return buffers delivered
     */
    int drain(int max) {
        int n = 0;
        while (n < max && pollOnce()) {
            n++;
        }
        return n;
    }

    /** Claim holder: delivers one buffer. @return true when a buffer was delivered */
    boolean pollOnce() {
        if (abandoned) {
            return false;
        }
        HostBuffer b = collectorRing.poll();
        if (b == null) {
            return false;
        }
        long since = Math.max(1, System.nanoTime());
        // Announce the call, then look for stop's verdict again (both volatile, against abandon()'s store and load):
        // either stop sees this call running, or this worker sees the lane abandoned and starts no call. A call
        // begun after stop gave up would hand the collector records stop already counted dropped.
        CALL_SINCE.setVolatile(this, since);
        if (abandoned) {
            CALL_SINCE.setVolatile(this, 0L);
            return false;  // the buffer stays undelivered, in the backlog stop counted
        }
        deliver(b, since);
        boolean wasAtLimit = atLimit();
        delivered.setRelease(delivered.getPlain() + 1);
        if (wasAtLimit) {
            drainShard.wake();  // the lane may be refilled again
        }
        handBack(b);
        return true;
    }

    /** Claim holder: calls the collector on one buffer and counts its records collected or lost. */
    private void deliver(HostBuffer b, long since) {
        boolean accepted = false;
        try {
            collector.accept(b);
            accepted = true;
            ledger.collected(b.lane, b.count);
        } catch (Throwable t) {
            ledger.lostToCollector(b.lane, b.count, since, System.nanoTime());
            errors.add("collector: lane " + b.lane + " buffer seq " + b.seq + " ("
                    + Count.of(b.count, "record") + ") lost: collector threw " + t);
        } finally {
            long ns = Math.max(0, System.nanoTime() - since);
            callNs.setRelease(callNs.getPlain() + ns);
            if (ns > longestCallNs.getPlain()) {
                longestCallNs.setRelease(ns);
            }
            CALL_SINCE.setVolatile(this, 0L);  // after the counts: whoever reads 0 sees them (see inCallSinceNs)
            meter.onCollected(b.kind, ns);
        }
        if (zeroed) {
            clear(b, accepted);
        }
        b.forgetNonZeroBlocks();
    }

    /**
     * Writes zeros over the buffer's records: only over the blocks the collector found non-zero, when its call
     * returned normally with a bitmap that covers them ({@link DrainedBuffer#nonZeroBlocks}), else over all.
     */
    private void clear(HostBuffer b, boolean accepted) {
        long bytes = (long) b.count * b.recordSize;
        long[] bits = b.nonZeroBitmap;
        int blockBytes = b.nonZeroBlockBytes;
        if (accepted && bits != null && blockBytes > 0 && (long) bits.length * 64 * blockBytes >= bytes) {
            transport.clearBlocks(b, bytes, bits, blockBytes);
        } else {
            transport.clearBuffer(b, bytes);
        }
    }

    private void handBack(HostBuffer b) {
        Backoff.Idle full = null;
        while (!done.offer(b)) {
            if (replenisherGone) {
                parked.add(b);
                return;
            }
            if (full == null) {
                full = new Backoff.Idle();
            }
            full.idle();
        }
        replenisher.wake();
    }

    /** Stop order: the replenisher made its final pass; a buffer that finds the done queue full is parked. */
    void replenisherStopped() {
        replenisherGone = true;
    }

    /**
     * Stop gave up on this lane (its backlog outlived stop's bound): no collector call of it begins after this. A call
     * already running (the returned time is not 0) finishes on its worker when it does; its buffer is not part of the
     * final counts (counted dropped, stopped) although it may still reach the collector after stop returned.
     *
     * @return {@link System#nanoTime()} when the call still running began, or 0 when none runs: then the collector
     *         has got exactly the buffers counted so far, and gets no more
     */
    long abandon() {
        abandoned = true;
        return inCallSinceNs();
    }

    /** @return whether stop gave up on this lane */
    boolean abandoned() {
        return abandoned;
    }

    /** @return whether every buffer handed in was delivered and no call is running (any thread; a snapshot) */
    boolean idle() {
        return backlog() == 0 && inCallSinceNs() == 0;
    }

    @Override
    public String toString() {
        return "lane " + lane + "'s collector";
    }
}
