package dev.dfx.pipeline;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One collector thread: takes drained buffers from its host ready shard, calls the {@link Collector}, counts
 * the records collected (or lost, if the collector throws), and returns the buffer through its done queue to the
 * replenisher. After the replenisher has stopped, a buffer that finds the done queue full is parked (the records
 * were already counted; the buffer is freed with the region).
 *
 * <p>Thread-safety: {@link #run()} on one thread; {@link #deliver} also from the stopping thread once this
 * shard's thread has ended.
 */
final class CollectorShard implements Runnable {
    private final int index;
    private final SpscRing<HostBuffer> ready;
    private final SpscRing<HostBuffer> done;
    private final Collector collector;
    private final HostLedger ledger;
    private final ErrorLog errors;
    private final Queue<HostBuffer> parked = new ConcurrentLinkedQueue<>();
    private final HostIdle idle = new HostIdle();
    private final HostIdle replenisher;
    private volatile boolean stopping;
    private volatile boolean replenisherGone;

    CollectorShard(int index, SpscRing<HostBuffer> ready, SpscRing<HostBuffer> done, Collector collector,
            HostLedger ledger, HostIdle replenisher, ErrorLog errors) {
        this.index = index;
        this.replenisher = replenisher;
        this.ready = ready;
        this.done = done;
        this.collector = collector;
        this.ledger = ledger;
        this.errors = errors;
    }

    /** @return this collector's idle state: its drain shard wakes it */
    HostIdle idleState() {
        return idle;
    }

    @Override
    public void run() {
        idle.bindToCurrentThread();
        while (true) {
            if (pollOnce()) {
                idle.reset();
            } else if (stopping) {
                if (!pollOnce()) {
                    return;
                }
            } else {
                idle.idle();
            }
        }
    }

    /** @return true when a buffer was delivered */
    boolean pollOnce() {
        HostBuffer b = ready.poll();
        if (b == null) {
            return false;
        }
        deliver(b);
        handBack(b);
        return true;
    }

    /** Calls the collector on one buffer and counts its records collected or lost. */
    void deliver(HostBuffer b) {
        try {
            collector.accept(b);
            ledger.collected(b.lane, b.count);
        } catch (Throwable t) {
            ledger.lostToCollector(b.lane, b.count);
            errors.add("collector shard " + index + ": lane " + b.lane + " buffer seq " + b.seq + " ("
                    + b.count + " records) lost: collector threw " + t);
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

    /** Stop order: collectors drain what is left, then end. */
    void stop() {
        stopping = true;
        idle.wake();
    }

    void replenisherStopped() {
        replenisherGone = true;
    }
}
