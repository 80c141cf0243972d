package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The collector side of one drain shard: takes drained buffers from the shard's collector ring, calls the
 * {@link Collector}, counts the records collected (or lost, if the collector throws), clears the records of a
 * zeroed pool ({@link PoolSpec#zeroed()}), and returns the buffer through its done queue to the replenisher. After
 * the replenisher has stopped, a buffer that finds the done queue full is parked (the records were already
 * counted; the buffer is freed with the region).
 *
 * <p>Any worker of a {@link CollectorPool} may serve the shard, but only while it holds the shard's claim, so calls
 * for one shard never overlap and one lane's buffers reach the collector in seq order. The claim's CAS (acquire)
 * and release hand the consumer side of the ring from one worker to the next. While a worker is inside the
 * collector, {@link #inCallSinceNs()} says since when, so the pool can tell a wedged call.
 *
 * <p>Thread-safety: {@link #tryClaim}, {@link #release}, {@link #hasWork}, {@link #inCallSinceNs} from any thread;
 * {@link #drain}, {@link #pollOnce()} and {@link #deliver} only while holding the claim.
 */
final class CollectorShard {
    private static final VarHandle CLAIM;
    private static final VarHandle CALL_SINCE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIM = l.findVarHandle(CollectorShard.class, "claim", int.class);
            CALL_SINCE = l.findVarHandle(CollectorShard.class, "callSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int index;
    private final SpscRing<HostBuffer> ready;
    private final SpscRing<HostBuffer> done;
    private final Collector collector;
    private final HostLedger ledger;
    private final RecycleMeter meter;
    private final HostTransport transport;
    private final boolean[] zeroed;
    private final ErrorLog errors;
    private final Queue<HostBuffer> parked = new ConcurrentLinkedQueue<>();
    private final Doorbell replenisher;
    private final Doorbell drainShard;
    @SuppressWarnings("unused") // through CLAIM
    private volatile int claim;
    @SuppressWarnings("unused") // through CALL_SINCE
    private volatile long callSince;
    private volatile boolean replenisherGone;

    /**
     * @param meter       sums the time of each collector call per kind (the host's service time)
     * @param zeroed      per kind: whether its buffers are cleared before they go back (see {@link PoolSpec#zeroed()})
     * @param replenisher doorbell of the loop that runs the replenisher, rung after each buffer handed back
     * @param drainShard  doorbell of the loop that runs this shard's drain shard, rung when the ring has room again
     */
    CollectorShard(int index, SpscRing<HostBuffer> ready, SpscRing<HostBuffer> done, Collector collector,
            HostLedger ledger, RecycleMeter meter, HostTransport transport, boolean[] zeroed, Doorbell replenisher,
            Doorbell drainShard, ErrorLog errors) {
        this.index = index;
        this.meter = meter;
        this.ready = ready;
        this.done = done;
        this.collector = collector;
        this.ledger = ledger;
        this.transport = transport;
        this.zeroed = zeroed;
        this.replenisher = replenisher;
        this.drainShard = drainShard;
        this.errors = errors;
    }

    /** @return whether a drained buffer is waiting (any thread; a snapshot) */
    boolean hasWork() {
        return !ready.isEmpty();
    }

    /** @return true when the caller now holds the claim (acquire); then it must {@link #release()} it */
    boolean tryClaim() {
        return CLAIM.compareAndSet(this, 0, 1);
    }

    /** Gives the claim back (release): what the holder did happens-before the next holder's work. */
    void release() {
        CLAIM.setRelease(this, 0);
    }

    /** @return {@link System#nanoTime()} when the current collector call began, or 0 outside a call */
    long inCallSinceNs() {
        return (long) CALL_SINCE.getOpaque(this);
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
        HostBuffer b = ready.poll();
        if (b == null) {
            return false;
        }
        if (ready.size() + 1 >= ready.capacity()) {
            drainShard.wake();  // the ring was full: its drain shard may have left entries behind
        }
        deliver(b);
        handBack(b);
        return true;
    }

    /** Claim holder: calls the collector on one buffer and counts its records collected or lost. */
    void deliver(HostBuffer b) {
        long since = Math.max(1, System.nanoTime());
        CALL_SINCE.setOpaque(this, since);
        try {
            collector.accept(b);
            ledger.collected(b.lane, b.count);
        } catch (Throwable t) {
            ledger.lostToCollector(b.lane, b.count);
            errors.add("collector shard " + index + ": lane " + b.lane + " buffer seq " + b.seq + " ("
                    + b.count + " records) lost: collector threw " + t);
        } finally {
            CALL_SINCE.setOpaque(this, 0L);
            meter.onCollected(b.kind, System.nanoTime() - since);
        }
        if (zeroed[b.kind]) {
            transport.clearBuffer(b, (long) b.count * b.recordSize);
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
}
