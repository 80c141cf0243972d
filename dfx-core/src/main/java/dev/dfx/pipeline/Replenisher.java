package dev.dfx.pipeline;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replenisher (docs/pipeline.md, host rules 3 and 5): each tick it moves done buffers to recycled lanes (the
 * origin shard's, unless another shard has a strictly larger deficit; see {@link RecycledRouter}), tops up each
 * recycled lane below its watermark with one batched allocation per kind, and runs the arena-ack hook once. It
 * never waits on producer state and never writes a free queue.
 *
 * <p>A buffer that finds both its target and its origin recycled lane full is parked and offered again on later
 * ticks. Nothing here blocks but the hook, which is user code; {@link #inHookSinceNs()} tells a stop that finds the
 * loop stuck that the hook is where. Thread-safety: {@link #tick()} on the thread of the {@link HostLoop} that runs
 * it (or one test thread); {@link #ticks()}, {@link #inHookSinceNs()}, {@link #abandon()} from any thread.
 */
final class Replenisher {
    private final SpscRing<HostBuffer>[] done;
    private final SpscRing<HostBuffer>[][] recycled;
    private final int[][] watermark;
    private final BufferStore store;
    private final ArenaAckHook hook;
    private final ErrorLog errors;
    private final RecycleMeter meter;
    private final ArrayDeque<HostBuffer> retired = new ArrayDeque<>();
    private final boolean[] allocationFailed;
    private final int[] deficits;
    private final AtomicLong ticks = new AtomicLong();
    private final AtomicLong hookSince = new AtomicLong();
    private final Doorbell[] shards;
    private volatile boolean abandoned;
    private final String pipeline;

    /**
     * @param pipeline  the pipeline's name (for messages)
     * @param done      per lane: its done queue (collector -> replenisher); a buffer goes back to the recycled lanes
     *                  of its kind, routed from the shard that drained it ({@link HostBuffer#origin})
     * @param recycled  [kind][shard]: replenisher -> drain shard
     * @param watermark [kind][shard]: spare buffers to keep in each recycled lane (0: never allocate)
     * @param shards    per shard: the doorbell of the loop running it, rung when its recycled lane receives a buffer
     * @param meter     takes each drained buffer's recycle latency when it lands in a recycled lane
     */
    Replenisher(String pipeline, SpscRing<HostBuffer>[] done, SpscRing<HostBuffer>[][] recycled, int[][] watermark,
            BufferStore store, ArenaAckHook hook, Doorbell[] shards, RecycleMeter meter, ErrorLog errors) {
        this.pipeline = pipeline;
        this.done = done;
        this.meter = meter;
        this.recycled = recycled;
        this.watermark = watermark;
        this.store = store;
        this.hook = hook;
        this.errors = errors;
        this.allocationFailed = new boolean[recycled.length];
        this.deficits = new int[shards.length];
        this.shards = shards.clone();
    }

    /** Reports that this part threw on its host loop and was taken off it. */
    void failed(Throwable t) {
        errors.add("replenisher failed and stopped: " + t);
    }

    /** @return ticks run so far (any thread) */
    long ticks() {
        return ticks.get();
    }

    /** @return {@link System#nanoTime()} when the running arena-ack hook call began, or 0 outside one (any thread) */
    long inHookSinceNs() {
        return hookSince.getOpaque();
    }

    /** Stop gave up on this replenisher (its loop is stuck): the loop drops it without another tick. Any thread. */
    void abandon() {
        abandoned = true;
    }

    /** @return whether stop gave up on this replenisher */
    boolean abandoned() {
        return abandoned;
    }

    /**
     * One replenisher tick.
     *
     * @return true when it moved or allocated any buffer
     */
    boolean tick() {
        boolean did = false;
        for (SpscRing<HostBuffer> d : done) {
            HostBuffer b;
            while ((b = d.poll()) != null) {
                route(b, b.origin);
                did = true;
            }
        }
        for (int n = retired.size(); n > 0; n--) {
            HostBuffer b = retired.poll();
            route(b, b.origin);
        }
        for (int k = 0; k < recycled.length; k++) {
            did |= topUp(k);
        }
        if (hook != null) {
            hookSince.setOpaque(Math.max(1, System.nanoTime()));
            try {
                hook.onReplenisherTick();
            } catch (Throwable t) {
                errors.add("arena ack hook threw " + t);
            } finally {
                hookSince.setOpaque(0);
            }
        }
        ticks.incrementAndGet();
        return did;
    }

    /** Sends one done buffer to a recycled lane of its kind. */
    void route(HostBuffer b, int origin) {
        SpscRing<HostBuffer>[] recycledLanes = recycled[b.kind];
        int[] wm = watermark[b.kind];
        for (int s = 0; s < recycledLanes.length; s++) {
            deficits[s] = wm[s] - recycledLanes[s].size();
        }
        int target = RecycledRouter.select(origin, deficits);
        long drainedAt = b.drainedAtNs;
        int lane = b.lane;
        int kind = b.kind;
        long out = drainedAt != 0 ? meter.outstanding(lane) : 0;  // before the offer, as b.drainedAtNs below
        b.drainedAtNs = 0;  // before the offer: once offered, the buffer belongs to the drain shard
        b.origin = target;
        if (recycledLanes[target].offer(b)) {
            landed(kind, lane, drainedAt, out);
            wakeShard(target);
            return;
        }
        b.origin = origin;
        if (recycledLanes[origin].offer(b)) {
            landed(kind, lane, drainedAt, out);
            wakeShard(origin);
        } else {
            b.drainedAtNs = drainedAt;  // still ours: measured when it lands on a later tick
            retired.add(b);
        }
    }

    /** A buffer of {@code lane} drained at {@code drainedAt} is back in a recycled lane: its W ends here. */
    private void landed(int kind, int lane, long drainedAt, long out) {
        if (drainedAt != 0) {
            meter.onRecycled(kind, lane, System.nanoTime() - drainedAt, out);
        }
    }

    private void wakeShard(int s) {
        shards[s].wake();
    }

    /** Tops every recycled lane of a kind up to its watermark with one block. */
    private boolean topUp(int kind) {
        SpscRing<HostBuffer>[] recycledLanes = recycled[kind];
        int[] wm = watermark[kind];
        int total = 0;
        for (int s = 0; s < recycledLanes.length; s++) {
            deficits[s] = Math.max(0, Math.min(wm[s], recycledLanes[s].capacity()) - recycledLanes[s].size());
            total += deficits[s];
        }
        if (total == 0 || allocationFailed[kind]) {
            return false;
        }
        HostBuffer[] fresh;
        try {
            fresh = store.allocate(kind, total);
        } catch (OutOfMemoryError | RuntimeException e) {
            fresh = null;
        }
        if (fresh == null) {
            allocationFailed[kind] = true;
            errors.add("kind " + kind + ": cannot allocate " + total + " more buffers (memory or block table"
                    + " exhausted); recycled lanes stay below their watermark");
            return false;
        }
        int i = 0;
        for (int s = 0; s < recycledLanes.length; s++) {
            for (int j = 0; j < deficits[s]; j++) {
                HostBuffer b = fresh[i++];
                b.origin = s;
                if (!recycledLanes[s].offer(b)) {
                    retired.add(b);
                }
            }
            wakeShard(s);
        }
        return true;
    }

    @Override
    public String toString() {
        return "the replenisher of pipeline " + pipeline;
    }
}
