package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One drain shard (DESIGN.md §5, host rules 1-2): serves ready queues {@code index, index + n, ...}; for each
 * drained entry it pulls the buffer, tops up that lane's free queue from this shard's recycled lane (recording
 * a short site when the lane runs dry), and hands the buffer to its collector shard. It never waits: when the
 * collector shard's ring is full it leaves the entry in the ready queue for a later sweep, so a slow collector
 * holds back only its own lanes (their producers wait at the push gate) and never the other parts of the
 * {@link HostLoop} that runs this shard. After every sweep the loop retries the short sites. The loop's thread is
 * the only run-time writer of the free queues of the lanes this shard serves.
 *
 * <p>Corruption (the host trusts no producer-written field): a ready-queue tail outside {@code 0..size-1}, or an
 * entry that names a bad lane, kind, count or handle (one not lent to that lane: published twice, or another
 * lane's), quarantines the queue and marks its producer's lanes failed with the reason; the host then no longer
 * reads that queue, so a hostile producer cannot make it follow an index out of bounds or hand one buffer out
 * twice. A sequence gap is reported. All go to the pipeline's errors, and the records involved show up as silent
 * loss at reconcile.
 *
 * <p>Thread-safety: {@link #sweep()} / {@link #retryShortSites()} on the thread of its host loop (or one test
 * thread); {@link #pause}, {@link #paused()} and the counters from any thread.
 */
final class DrainShard {
    private final int index;
    private final int[] queues;
    private final int[] heads;
    private final boolean[] quarantined;
    private final RegionLayout layout;
    private final HostTransport transport;
    private final BufferStore store;
    private final List<PipelineConfig.LaneSpec> lanes;
    private final List<PoolSpec> pools;
    private final FreeQueueHost[] freeQueues;
    private final SpscRing<HostBuffer>[] recycled;
    private final SpscRing<HostBuffer> hostReady;
    private final long[] expectedSeq;
    private final ShortSites shortSites;
    /** Tops up one short site's free queue: built once, so a retry (every pass of the loop) allocates nothing. */
    private final IntPredicate refill = this::refill;
    private final ErrorLog errors;
    private final RecycleMeter meter;
    private final AtomicLong drainedEntries = new AtomicLong();
    private final Doorbell loop;
    private final Doorbell collectors;
    private volatile boolean paused;

    /**
     * @param recycled   this shard's recycled lane of each kind
     * @param loop       the doorbell of the host loop that runs this shard (rung when it is resumed)
     * @param collectors the doorbell of the collector workers, rung after each hand-off
     * @param meter      counts each drained buffer and stamps its drain time (the start of its recycle latency)
     */
    DrainShard(int index, int shards, RegionLayout layout, HostTransport transport, BufferStore store,
            List<PipelineConfig.LaneSpec> lanes, List<PoolSpec> pools, FreeQueueHost[] freeQueues,
            SpscRing<HostBuffer>[] recycled, SpscRing<HostBuffer> hostReady, Doorbell loop, Doorbell collectors,
            RecycleMeter meter, ErrorLog errors) {
        this.index = index;
        this.meter = meter;
        this.loop = loop;
        this.collectors = collectors;
        int n = 0;
        for (int q = index; q < layout.producers(); q += shards) {
            n++;
        }
        this.queues = new int[n];
        for (int i = 0, q = index; q < layout.producers(); q += shards) {
            queues[i++] = q;
        }
        this.heads = new int[n];
        this.quarantined = new boolean[n];
        this.layout = layout;
        this.transport = transport;
        this.store = store;
        this.lanes = lanes;
        this.pools = pools;
        this.freeQueues = freeQueues;
        this.recycled = recycled;
        this.hostReady = hostReady;
        this.expectedSeq = new long[lanes.size()];
        this.shortSites = new ShortSites(lanes.size());
        this.errors = errors;
    }

    /** @return true when this shard serves producer {@code q}'s ready queue */
    boolean serves(int producer) {
        for (int q : queues) {
            if (q == producer) {
                return true;
            }
        }
        return false;
    }

    /** Makes the calling thread the only writer of this shard's lanes' free queues. */
    void bindToCurrentThread() {
        for (PipelineConfig.LaneSpec l : lanes) {
            if (serves(l.producer())) {
                freeQueues[l.lane()].bindOwner(Thread.currentThread());
            }
        }
    }

    /** Test hook: a paused shard drains nothing (a wedged host thread) until resumed; its loop skips it. */
    void pause(boolean p) {
        paused = p;
        loop.wake();
    }

    /** @return whether the shard is paused (any thread) */
    boolean paused() {
        return paused;
    }

    /**
     * @return whether every ready queue this shard serves is empty or quarantined: after the producers ended, the
     *         final pass is complete (loop thread)
     */
    boolean readyQueuesEmpty() {
        for (int i = 0; i < queues.length; i++) {
            if (!quarantined[i]
                    && transport.getIntAcquire(layout.readyQueue(queues[i]) + RegionLayout.RQ_TAIL) != heads[i]) {
                return false;
            }
        }
        return true;
    }

    /** Reports that this part threw on its host loop and was taken off it. */
    void failed(Throwable t) {
        errors.add("drain shard " + index + " failed and stopped: " + t);
    }

    /** @return entries drained so far (any thread) */
    long drainedEntries() {
        return drainedEntries.get();
    }

    ShortSites shortSites() {
        return shortSites;
    }

    /**
     * Drains every served ready queue once, up to the tail seen at the start of each, while the collector ring has
     * room (the drain shard is that ring's only producer, so room seen here is still there at the offer).
     *
     * @return true when any entry was drained
     */
    boolean sweep() {
        boolean did = false;
        int size = layout.readyQueueSize();
        for (int i = 0; i < queues.length; i++) {
            if (quarantined[i]) {
                continue;
            }
            int q = queues[i];
            long rq = layout.readyQueue(q);
            int tail = transport.getIntAcquire(rq + RegionLayout.RQ_TAIL);
            if (tail < 0 || tail >= size) {
                quarantine(i, "ready queue " + q + ": tail " + tail + " is outside 0.." + (size - 1)
                        + " (corrupt); queue no longer drained");
                continue;
            }
            int head = heads[i];
            while (head != tail && hostReady.hasRoom() && !quarantined[i]) {
                long e = layout.readyEntry(q, head);
                transport.pull(e, RegionLayout.ENTRY_BYTES);
                int at = head;
                head = head + 1 == size ? 0 : head + 1;
                heads[i] = head;
                transport.setIntRelease(rq + RegionLayout.RQ_HEAD, head);
                process(i, q, at, e);
                did = true;
            }
        }
        return did;
    }

    /** Stops draining queue {@code i} for good and fails its producer's lanes with the reason. */
    private void quarantine(int i, String reason) {
        quarantined[i] = true;
        boolean any = false;
        for (PipelineConfig.LaneSpec l : lanes) {
            if (l.producer() == queues[i]) {
                errors.laneFailed(l.lane(), reason);
                any = true;
            }
        }
        if (!any) {
            errors.add(reason);
        }
    }

    private void process(int i, int q, int at, long e) {
        MemorySegment v = transport.view();
        int lane = v.get(Mem.INT, e + RegionLayout.E_LANE);
        int kind = v.get(Mem.INT, e + RegionLayout.E_KIND);
        long handle = v.get(Mem.LONG, e + RegionLayout.E_HANDLE);
        long seq = v.get(Mem.LONG, e + RegionLayout.E_SEQ);
        int count = v.get(Mem.INT, e + RegionLayout.E_COUNT);
        String bad = null;
        HostBuffer b = null;
        if (lane < 0 || lane >= lanes.size() || lanes.get(lane).producer() != q) {
            bad = "lane " + lane + " is not a lane of producer " + q;
        } else if (kind != lanes.get(lane).kind()) {
            bad = "kind " + kind + " is not lane " + lane + "'s kind " + lanes.get(lane).kind();
        } else if (count < 1 || count > pools.get(kind).recordsPerBuffer()) {
            bad = "count " + count + " is outside 1.." + pools.get(kind).recordsPerBuffer();
        } else if ((b = store.host(handle, kind)) == null) {
            bad = "handle 0x" + Long.toHexString(handle) + " is not a buffer of kind " + kind;
        } else if (b.holder != lane) {
            bad = "handle 0x" + Long.toHexString(handle) + " is not lent to lane " + lane
                    + (b.holder < 0 ? " (already published)" : " (it is lane " + b.holder + "'s)");
        }
        if (bad != null) {
            quarantine(i, "ready queue " + q + " entry " + at + ": " + bad + " (corrupt); queue no longer drained");
            return;
        }
        b.holder = HostBuffer.NO_HOLDER;
        b.drainedFrom = lane;
        if (seq != expectedSeq[lane]) {
            errors.add("lane " + lane + ": buffer seq " + seq + " arrived, expected " + expectedSeq[lane]);
        }
        expectedSeq[lane] = seq + 1;
        b.drainedAtNs = System.nanoTime();  // one clock read per buffer: the start of its recycle latency W
        meter.onDrained(kind);
        transport.pullBuffer(b, (long) count * b.recordSize);
        b.carry(lane, q, seq, count, index);
        drainedEntries.incrementAndGet();
        FreeQueueHost fq = freeQueues[lane];
        fq.drained();
        if (!fq.topUp(transport, recycled[kind])) {
            shortSites.add(lane);
        }
        if (!hostReady.offer(b)) {  // cannot happen: room was checked before this entry was taken
            errors.add("drain shard " + index + ": collector ring full after its room was checked; lane " + lane
                    + " buffer seq " + seq + " lost");
            return;
        }
        collectors.wake();
    }

    /** @return true when any short site filled */
    boolean retryShortSites() {
        return shortSites.retry(refill);
    }

    private boolean refill(int lane) {
        return freeQueues[lane].topUp(transport, recycled[lanes.get(lane).kind()]);
    }
}
