package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * One drain shard (docs/pipeline.md, host rules 1-2): serves ready queues {@code index, index + n, ...}; for each
 * drained entry it pulls the buffer, hands it to its lane's collector ring ({@link CollectorLane}) and tops up that
 * lane's free queue from this shard's recycled lane (recording a short site when the recycled lane runs dry, or when
 * the lane's collector backlog is at its limit). It never waits and never calls a collector: a lane's collector ring
 * always has room for what the lane can publish, so every entry is taken at once, and a slow collector call holds
 * back only its own lane (which then waits at its pop gate), never another lane of the same ready queue or shard,
 * nor the other parts of the {@link HostLoop} that runs this shard. After every sweep the loop retries the short
 * sites. The loop's thread is the only run-time writer of the free queues of the lanes this shard serves.
 *
 * <p>Corruption (the host trusts no producer-written field): a ready-queue tail outside {@code 0..size-1}, or an
 * entry that names a bad lane, kind, count or handle (one not lent to that lane: published twice, or another
 * lane's), quarantines the queue and marks its producer's lanes failed with the reason; the host then no longer
 * reads that queue, so a hostile producer cannot make it follow an index out of bounds or hand one buffer out
 * twice. A sequence gap is reported. All go to the pipeline's errors, and the records involved show up as silent
 * loss at reconcile.
 *
 * <p>Final pass (stop): {@link #startFinalPass()} fixes, per ready queue, the tail up to which the shard drains; the
 * pass is complete when every queue reached it ({@link #finalPassDone()}). Entries published after it belong to lanes
 * stop revoked and are never taken.
 *
 * <p>Thread-safety: {@link #sweep()} / {@link #retryShortSites()} / {@link #startFinalPass} / {@link #finalPassDone()}
 * on the thread of its host loop (or one test thread); {@link #pause}, {@link #paused()}, {@link #abandon()} and
 * {@link #abandoned()} from any thread.
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
    /** Per lane, where its drained buffers go (this shard hands in only those of the lanes it serves). */
    private final CollectorLane[] collectorLanes;
    private final long[] expectedSeq;
    private final ShortSites shortSites;
    /** Tops up one short site's free queue: built once, so a retry (every pass of the loop) allocates nothing. */
    private final IntPredicate refill = this::refill;
    private final ErrorLog errors;
    private final RecycleMeter meter;
    private final Doorbell loop;
    /** Places the served lanes' producer-side drops in time (producers in other processes), or null. */
    private final ProducerDropObserver producerDrops;
    /** Per producer, its ready queue's backlog series (this shard writes those of the queues it serves). */
    private final DepthLog[] readyDepths;
    /** Per served queue, the tail its final pass drains up to; null while the shard runs normally. */
    private int[] finalTails;
    private volatile boolean paused;
    private volatile boolean abandoned;

    /**
     * @param recycled       this shard's recycled lane of each kind
     * @param collectorLanes per lane, its collector lane (only those of lanes this shard serves are used)
     * @param loop           the doorbell of the host loop that runs this shard (rung when it is resumed)
     * @param meter          counts each drained buffer and stamps its drain time (the start of its recycle latency)
     * @param producerDrops  per lane, where the windows of its producer-side drops go when the producers are in other
     *                       processes (observed by this shard for the lanes it serves); null when they are in this
     *                       process (their writers place their own drops)
     * @param readyDepths    per producer, its ready queue's backlog series (only those of queues this shard serves
     *                       are written, by this shard)
     */
    DrainShard(int index, int shards, RegionLayout layout, HostTransport transport, BufferStore store,
            List<PipelineConfig.LaneSpec> lanes, List<PoolSpec> pools, FreeQueueHost[] freeQueues,
            SpscRing<HostBuffer>[] recycled, CollectorLane[] collectorLanes, Doorbell loop, RecycleMeter meter,
            ErrorLog errors, DropLog[] producerDrops, DepthLog[] readyDepths) {
        this.index = index;
        this.readyDepths = readyDepths;
        this.meter = meter;
        this.loop = loop;
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
        this.collectorLanes = collectorLanes;
        this.expectedSeq = new long[lanes.size()];
        this.shortSites = new ShortSites(lanes.size());
        this.errors = errors;
        this.producerDrops = producerDrops == null ? null : new ProducerDropObserver(transport, layout,
                lanes.stream().filter(l -> serves(l.producer())).toList(), producerDrops, System.nanoTime());
    }

    /** @return the shard's index */
    int index() {
        return index;
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
     * Starts the final pass: from now on each served ready queue is drained up to the tail read here (acquire). Call
     * on the loop thread (or the stopping thread of a pipeline without host threads) after stop decided every lane's
     * fate, so the tails cover every entry a closed lane published; entries a revoked lane publishes later are never
     * taken. Reading the tails here, not on the stopping thread, keeps them at or past every entry already drained.
     */
    void startFinalPass() {
        int[] tails = new int[queues.length];
        for (int i = 0; i < queues.length; i++) {
            tails[i] = transport.getIntAcquire(layout.readyQueue(queues[i]) + RegionLayout.RQ_TAIL);
        }
        finalTails = tails;
        paused = false;
    }

    /** @return whether the final pass took every entry up to its tails (quarantined queues count as done) */
    boolean finalPassDone() {
        for (int i = 0; i < queues.length; i++) {
            if (!quarantined[i] && heads[i] != finalTails[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Stop gave up waiting for this shard's final pass (its loop is stuck in another part): the loop drops it
     * without touching it again. Any thread.
     */
    void abandon() {
        abandoned = true;
        loop.wake();
    }

    /** @return whether stop gave up on this shard */
    boolean abandoned() {
        return abandoned;
    }

    /** Reports that this part threw on its host loop and was taken off it. */
    void failed(Throwable t) {
        errors.add("drain shard " + index + " failed and stopped: " + t);
    }

    ShortSites shortSites() {
        return shortSites;
    }

    /**
     * Drains every served ready queue once, up to the tail seen at the start of each (in the final pass, up to its
     * final tail), recording the backlog it found in the queue's depth series (a change only: an idle loop's sweeps
     * of an empty queue read no clock).
     *
     * @return true when any entry was drained
     */
    boolean sweep() {
        if (producerDrops != null) {
            // every sweep of the final pass observes: the producers have ended or were revoked by then
            if (finalTails != null) {
                producerDrops.observeAll(System.nanoTime());
            } else {
                producerDrops.poll(System.nanoTime());
            }
        }
        boolean did = false;
        int size = layout.readyQueueSize();
        for (int i = 0; i < queues.length; i++) {
            if (quarantined[i]) {
                continue;
            }
            int q = queues[i];
            long rq = layout.readyQueue(q);
            int tail = finalTails != null ? finalTails[i] : transport.getIntAcquire(rq + RegionLayout.RQ_TAIL);
            if (tail < 0 || tail >= size) {
                // the field is an unsigned 32-bit index: a corrupt one reads as what the producer wrote, not -1
                quarantine(i, "ready queue " + q + ": tail " + Integer.toUnsignedLong(tail) + " is outside 0.."
                        + (size - 1) + " (corrupt); queue no longer drained");
                continue;
            }
            int head = heads[i];
            // the backlog this sweep found (entries published and not yet taken), before draining it: the series'
            // step down shows at the next sweep, which finds the queue empty or refilled
            readyDepths[q].observe(head <= tail ? tail - head : tail - head + size);
            while (head != tail && !quarantined[i]) {
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
        freeQueues[lane].drained();
        if (!collectorLanes[lane].handIn(b)) {
            errors.add("lane " + lane + ": buffer seq " + seq + " is one more than the lane can hold (its collector"
                    + " ring is full; corrupt ready queue " + q + "); buffer not delivered");
        }
        if (!refill(lane)) {
            shortSites.add(lane);
        }
    }

    /** @return true when any short site filled */
    boolean retryShortSites() {
        return shortSites.retry(refill);
    }

    /** Tops up a lane's free queue, unless its collector backlog is at its limit; true when it reached its target. */
    private boolean refill(int lane) {
        if (collectorLanes[lane].atLimit()) {
            freeQueues[lane].observe(transport);
            return false;
        }
        return freeQueues[lane].topUp(transport, recycled[lanes.get(lane).kind()]);
    }

    @Override
    public String toString() {
        return "drain shard " + index;
    }
}
