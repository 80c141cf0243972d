package dev.dfx.pipeline;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The host side of one lane's free queue (host -> lane SPSC ring of buffer handles, free-running head/tail,
 * {@code slot = counter % slotCount}). Written only by the drain shard that serves the lane's producer, and, before
 * any drain thread exists, by the startup fill.
 *
 * <p>Fairness: a lane never holds more than its pool's {@code buffersPerLane} buffers (current + free queue +
 * published but not yet drained, tracked exactly here as {@code outstanding}), so a lane cannot hoard buffers a
 * sibling lane of the same producer is waiting for.
 *
 * <p>Write audit: every store into the queue is counted as made at startup, by the owning drain shard's thread,
 * or by a foreign thread; the last must stay zero (the replenisher never writes a free queue).
 *
 * <p>Ordering: slots are written (plain) and then the tail is released; the producer acquires the tail before
 * reading a slot. The host acquires the producer's head before computing room. After releasing the tail the host
 * rings the lane's {@link GateBell}, so an in-process producer parked at the pop gate takes the buffers at once.
 */
final class FreeQueueHost {
    private final int lane;
    private final int quota;
    private final int slotCount;
    private final long headOffset;
    private final long tailOffset;
    private final RegionLayout layout;
    private final ErrorLog errors;
    /** The queue's depth over time, as this side sees it when it reads the producer's head. */
    private final DepthLog depths;
    /** The lane's in-process producer's pop-gate bell. */
    private final GateBell bell;

    private long tail;
    private long outstanding;
    private volatile Thread owner;
    private boolean corrupt;
    private final AtomicLong startupWrites = new AtomicLong();
    private final AtomicLong ownerWrites = new AtomicLong();
    private final AtomicLong foreignWrites = new AtomicLong();

    /** @param bell rung after every refill (tail released) */
    FreeQueueHost(int lane, int quota, RegionLayout layout, ErrorLog errors, DepthLog depths, GateBell bell) {
        this.depths = depths;
        this.bell = bell;
        this.lane = lane;
        this.quota = quota;
        this.slotCount = layout.slotCount();
        this.headOffset = layout.lane(lane) + RegionLayout.L_FQ_HEAD;
        this.tailOffset = layout.lane(lane) + RegionLayout.L_FQ_TAIL;
        this.layout = layout;
        this.errors = errors;
    }

    int lane() {
        return lane;
    }

    /** Binds the queue to the drain shard thread that will be its only writer. */
    void bindOwner(Thread t) {
        owner = t;
    }

    /** The lane published a buffer and its drain shard took it: one fewer buffer held by the lane. */
    void drained() {
        outstanding--;
    }

    /**
     * Records the queue's depth (acquiring the producer's head) without pushing: for a lane whose refill is held back
     * (its collector backlog at its limit), so the series still sees its queue drain.
     */
    void observe(HostTransport t) {
        long depth = tail - t.getLongAcquire(headOffset);
        if (!corrupt && depth >= 0 && depth <= slotCount) {
            depths.observe(depth);
        }
    }

    /** Any thread. @return the queue's depth series, oldest first */
    List<DepthSample> depthSamples() {
        return depths.samples();
    }

    /**
     * Pushes buffers from {@code source} while the queue has room and the lane is under its quota.
     *
     * @return true when the queue reached its target (full, or the lane holds its quota); false when
     *         {@code source} ran dry first (a short site)
     */
    boolean topUp(HostTransport t, SpscRing<HostBuffer> source) {
        if (corrupt) {
            return true;
        }
        long head = t.getLongAcquire(headOffset);
        long depth = tail - head;
        if (depth < 0 || depth > slotCount) {
            corrupt = true;
            // both are unsigned 64-bit counters; a head past the tail is no depth at all, not a negative one
            errors.laneFailed(lane, "free queue head " + Long.toUnsignedString(head) + (depth < 0 ? " is past its"
                    + " tail " : " and tail ") + Long.toUnsignedString(tail) + (depth < 0 ? "" : " are more than "
                    + slotCount + " slots apart") + " (corrupt); lane no longer refilled");
            return true;
        }
        depths.observe(depth);
        long want = Math.min(slotCount - depth, quota - outstanding);
        long pushed = 0;
        while (pushed < want) {
            HostBuffer b = source.poll();
            if (b == null) {
                break;
            }
            push(t, b);
            pushed++;
        }
        if (pushed > 0) {
            t.setLongRelease(tailOffset, tail);
            bell.ring();
            depths.observe(depth + pushed);   // the producer may have taken some since: at most this many
        }
        return pushed >= want;
    }

    /** Startup fill (before any drain thread exists): pushes these buffers. */
    void fill(HostTransport t, HostBuffer[] buffers, int from, int n) {
        for (int i = 0; i < n; i++) {
            push(t, buffers[from + i]);
        }
        t.setLongRelease(tailOffset, tail);
        depths.observe(tail - t.getLongAcquire(headOffset));
    }

    private void push(HostTransport t, HostBuffer b) {
        b.holder = lane;
        t.setLong(layout.freeSlot(lane, (int) (tail % slotCount)), b.handle);
        tail++;
        outstanding++;
        Thread o = owner;
        if (o == null) {
            startupWrites.incrementAndGet();
        } else if (o == Thread.currentThread()) {
            ownerWrites.incrementAndGet();
        } else {
            foreignWrites.incrementAndGet();
        }
    }

    long startupWrites() {
        return startupWrites.get();
    }

    long ownerWrites() {
        return ownerWrites.get();
    }

    long foreignWrites() {
        return foreignWrites.get();
    }
}
