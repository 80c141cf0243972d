package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * The producer engine of one lane (docs/pipeline.md, producer side): claims record slots in the lane's current
 * buffer, publishes full buffers through the push gate and claims replacements through the pop gate.
 *
 * <p>Use from exactly one thread per lane, and one thread for all lanes of a producer (they share its ready
 * queue); not thread-safe. A lane's writer thread is the one that attached it: the first claim after start or after
 * a flush attaches the lane (its attach state, {@link RegionLayout#L_ATTACH}, goes to attached) and {@link #flush()}
 * detaches it after publishing, so moving a lane to another thread takes a flush first. {@link Pipeline#stop()}
 * waits for attached lanes (up to the backstop) and treats a lane whose writer thread ended as stopped. Typical use:
 *
 * <pre>{@code
 * long off = w.claim();                  // counts the attempt in total first
 * if (off >= 0) {
 *     MemorySegment b = w.segment();     // the current buffer, valid until the next claim/flush
 *     b.set(JAVA_LONG_UNALIGNED.withOrder(LITTLE_ENDIAN), off, value);  // write the record, little-endian
 * }
 * ...
 * w.flush();                             // end of run: publish the partly filled buffer
 * }</pre>
 *
 * <p>Rules kept here: {@code total} is counted before anything can fail; a full buffer is published before a
 * replacement is claimed; a gate fails only while the buffer is still the producer's (publishing and
 * succeeding are one step: the ready-queue tail is released only after the gate passed); a failed publish
 * counts the whole buffer dropped and reuses it; a lane with no buffer counts each record dropped; each drop's time
 * goes to the lane's drop windows ({@link DropWindow}; one clock read per drop, none on the common path). Records
 * become visible to the host when their buffer is published (one release per buffer, no per-record fence). Once stop
 * closed or revoked the lane, nothing more is published: each record is counted dropped (cause
 * {@link DropCause#STOPPED}).
 *
 * <p>Cost: the common path of {@link #claim()} is one counter store (8 bytes, aligned: {@link LaneTotalField}) and
 * a compare; gates (and one acquire read of
 * the attach state) run once per buffer.
 */
public final class LaneWriter {
    private static final MemorySegment NO_BUFFER = MemorySegment.NULL;

    private final int lane;
    private final int kind;
    private final int producer;
    private final int recordSize;
    private final int capacity;
    private final boolean zeroed;
    private final MemorySegment region;
    private final long base;
    /** The lane's total in the region, stored on every claim. */
    private final LaneTotalField totalField;
    private final int slotCount;
    private final ProducerQueue readyQueue;
    private final BufferStore buffers;
    private final Gate gate;
    private final long attachOffset;
    /** Push gate condition: room in the ready queue, or the lane was stopped (then nothing is published). */
    private final GateCondition readyOrStopped;
    /** Pop gate condition: a buffer in the free queue, or the lane was stopped. */
    private final GateCondition freeOrStopped = () -> (stopSeen = stopped()) || freeQueueNonEmpty();
    private PayloadArena arena;
    /** When this lane's drops happened (push gate, pop gate, degraded). */
    private final DropLog drops;
    /** Whether this writer attached the lane and has not flushed since. */
    private boolean attached;
    /** Whether the last gate condition found the lane stopped. */
    private boolean stopSeen;
    /** The thread that last attached the lane (stop's proof that the lane stopped: the thread ended). */
    private volatile Thread writerThread;

    private MemorySegment current = NO_BUFFER;
    private long currentHandle;
    private long seq;
    /** Records in the current buffer. */
    private int count;
    /** {@code capacity} while the lane holds a buffer, else 0: the common path's single compare. */
    private int limit;
    private long total;
    private long published;
    private long dropped;
    private long droppedPush;
    private long droppedPop;
    private long droppedDegraded;
    private long freeHead;
    private long freeTailSeen;
    private long minFreeDepth;

    LaneWriter(PipelineConfig.LaneSpec spec, PoolSpec pool, MemorySegment region, RegionLayout layout,
            ProducerQueue readyQueue, BufferStore buffers, Gate gate, long initialFreeDepth, DropLog drops) {
        this.drops = drops;
        this.lane = spec.lane();
        this.kind = spec.kind();
        this.producer = spec.producer();
        this.recordSize = pool.recordSize();
        this.capacity = pool.recordsPerBuffer();
        this.zeroed = pool.zeroed();
        this.region = region;
        this.base = layout.lane(lane);
        this.totalField = new LaneTotalField(region, base + RegionLayout.L_TOTAL);
        this.slotCount = layout.slotCount();
        this.readyQueue = readyQueue;
        this.buffers = buffers;
        this.gate = gate;
        this.attachOffset = base + RegionLayout.L_ATTACH;
        this.readyOrStopped = () -> (stopSeen = stopped()) || readyQueue.ready();
        this.minFreeDepth = initialFreeDepth;
        region.set(Mem.LONG, base + RegionLayout.L_MIN_FREE, initialFreeDepth);
    }

    void attach(PayloadArena a) {
        this.arena = a;
    }

    Gate gate() {
        return gate;
    }

    /** @return the thread that last attached the lane, or null if none did (any thread) */
    Thread writerThread() {
        return writerThread;
    }

    /**
     * Claims one record slot. Counts the attempt in {@code total} first.
     *
     * @return the byte offset in {@link #segment()} of an exclusive slot of {@link #recordSize()} bytes, to be
     *         written before the next claim or flush; or -1 when the record was dropped (already counted by cause)
     */
    public long claim() {
        long t = total + 1;
        total = t;
        totalField.store(t);
        int c = count;
        if (c < limit) {
            count = c + 1;
            return (long) c * recordSize;
        }
        return claimSlow(1);
    }

    /**
     * Claims {@code n} consecutive record slots in one buffer, for a record that continues in the slots after it
     * (the reference's dep_gen overflow chain, reserved atomically in one buffer). Counts {@code n} attempts in
     * {@code total} first. When the current buffer has fewer than {@code n} free slots it is published first
     * (exactly as a full buffer), so the chain never straddles two buffers; if the chain is lost, all {@code n}
     * records are counted dropped by cause.
     *
     * @param n slots, {@code 1..recordsPerBuffer()}
     * @return the byte offset in {@link #segment()} of the first of {@code n} exclusive consecutive slots, to be
     *         written before the next claim or flush; or -1 when the {@code n} records were dropped (counted)
     * @throws IllegalArgumentException when {@code n} is not {@code 1..recordsPerBuffer()} (nothing counted): a
     *                                  chain longer than a buffer must be truncated by the caller
     */
    public long claim(int n) {
        if (n < 1 || n > capacity) {
            throw new IllegalArgumentException("lane " + lane + ": claim of " + n + " consecutive records, expected 1.."
                    + capacity + " (records per buffer)");
        }
        long t = total + n;
        total = t;
        totalField.store(t);
        int c = count;
        if (c + n <= limit) {
            count = c + n;
            return (long) c * recordSize;
        }
        return claimSlow(n);
    }

    /**
     * Claims a slot and copies one whole record into it.
     *
     * @param record at least {@link #recordSize()} bytes; the first {@code recordSize} are copied
     * @return true when written, false when the record was dropped (counted)
     */
    public boolean write(MemorySegment record) {
        long off = claim();
        if (off < 0) {
            return false;
        }
        MemorySegment.copy(record, 0, current, off, recordSize);
        return true;
    }

    /** @return the current buffer ({@code recordsPerBuffer * recordSize} bytes), valid until the next claim/flush */
    public MemorySegment segment() {
        return current;
    }

    /**
     * Publishes the partly filled current buffer, if it holds records (end of run), then detaches the lane: every
     * buffer it filled is published, so stop need not wait for it. Passes the push gate like a full buffer; if that
     * fails, its records are counted dropped and the buffer is kept for reuse. The next {@link #claim()} attaches the
     * lane again (and claims a replacement buffer lazily). Detaching is one compare-and-set (release): it comes after
     * every store to the lane.
     */
    public void flush() {
        if (!attached) {
            return;
        }
        if (currentHandle != 0 && count > 0) {
            publish();
        }
        attached = false;
        limit = 0;  // the next claim takes the slow path and attaches again
        Mem.compareAndExchangeInt(region, attachOffset, RegionLayout.LANE_ATTACHED, RegionLayout.LANE_DETACHED);
    }

    /**
     * @return whether every slot {@link #claim()} hands out holds zero bytes (the pool is {@link PoolSpec#zeroed()}):
     *         the producer may then write only the non-zero fields of a record
     */
    public boolean zeroed() {
        return zeroed;
    }

    /** @return the lane index */
    public int lane() {
        return lane;
    }

    /** @return the lane's buffer kind */
    public int kind() {
        return kind;
    }

    /** @return the lane's producer */
    public int producer() {
        return producer;
    }

    /** @return bytes per record */
    public int recordSize() {
        return recordSize;
    }

    /** @return records per buffer */
    public int recordsPerBuffer() {
        return capacity;
    }

    /** @return true while the lane is degraded (a backstop expired and the host has not moved since) */
    public boolean degraded() {
        return gate.degraded();
    }

    /**
     * The lane is detached, or the current buffer cannot take {@code n} more records (or there is none): attach,
     * switch, then claim {@code n}.
     */
    private long claimSlow(int n) {
        if (!attached) {
            if (!attach()) {
                drop(n, DropCause.STOPPED);
                return -1;
            }
            if (currentHandle != 0) {  // kept across the flush (it held no records): fill it on
                limit = capacity;
                int c = count;
                if (c + n <= limit) {
                    count = c + n;
                    return (long) c * recordSize;
                }
            }
        }
        if (currentHandle != 0) {
            // The current buffer is full (for n records): publish it before claiming a replacement.
            if (!publish()) {
                count = n;  // the buffer was dropped and is reused; these records go first in it
                return 0;
            }
        }
        DropCause c = popFree();
        if (c != null) {
            drop(n, c);
            return -1;
        }
        count = n;
        return 0;
    }

    /**
     * Attaches the lane (idle or detached -> attached, compare-and-set), naming this thread its writer first.
     *
     * @return false when stop closed or revoked the lane: nothing more may be written to it
     */
    private boolean attach() {
        writerThread = Thread.currentThread();
        int s = Mem.compareAndExchangeInt(region, attachOffset, RegionLayout.LANE_IDLE, RegionLayout.LANE_ATTACHED);
        if (s == RegionLayout.LANE_DETACHED) {
            s = Mem.compareAndExchangeInt(region, attachOffset, s, RegionLayout.LANE_ATTACHED);
        }
        attached = s == RegionLayout.LANE_IDLE || s == RegionLayout.LANE_DETACHED;
        return attached;
    }

    /** @return whether stop closed or revoked the lane (acquire of the attach state) */
    private boolean stopped() {
        int s = Mem.getIntAcquire(region, attachOffset);
        return s == RegionLayout.LANE_CLOSED || s == RegionLayout.LANE_REVOKED;
    }

    /** Push gate, then entry and tail release; on failure drops the buffer's records and keeps the buffer. */
    private boolean publish() {
        DropCause c = gate.pass(readyOrStopped, DropCause.PUSH_GATE);
        if (c == null && stopSeen) {
            c = DropCause.STOPPED;
        }
        if (c != null) {
            drop(count, c);
            if (zeroed) {
                current.asSlice(0, (long) count * recordSize).fill((byte) 0);  // reused: keep the slots zero
            }
            count = 0;
            if (arena != null) {
                arena.onBufferDropped();
            }
            return false;
        }
        if (arena != null) {
            arena.onBufferPublished();  // before the entry is released: the host may ack as soon as it sees it
        }
        readyQueue.push(lane, kind, currentHandle, seq, count);
        published += count;
        region.set(Mem.LONG, base + RegionLayout.L_PUBLISHED, published);
        seq++;
        region.set(Mem.LONG, base + RegionLayout.L_SEQ, seq);
        currentHandle = 0;
        region.set(Mem.LONG, base + RegionLayout.L_CURRENT, 0L);
        current = NO_BUFFER;
        limit = 0;
        count = 0;
        return true;
    }

    /** Pop gate, then takes the slot at the free-queue head; returns the loss cause or null. */
    private DropCause popFree() {
        if (!freeQueueNonEmpty()) {
            observeFreeDepth(0);
        }
        DropCause c = gate.pass(freeOrStopped, DropCause.POP_GATE);
        if (c != null) {
            return c;
        }
        if (stopSeen) {
            return DropCause.STOPPED;
        }
        long h = freeHead;
        long handle = region.get(Mem.LONG, base + RegionLayout.L_FQ_SLOTS + (h % slotCount) * 8);
        freeHead = h + 1;
        Mem.setLongRelease(region, base + RegionLayout.L_FQ_HEAD, h + 1);
        observeFreeDepth(freeTailSeen - (h + 1));
        MemorySegment b = buffers.device(handle, kind);
        if (b == null) {
            return DropCause.POP_GATE;  // a corrupt slot is no buffer; the host reports the missing seq
        }
        current = b;
        currentHandle = handle;
        region.set(Mem.LONG, base + RegionLayout.L_CURRENT, handle);
        limit = capacity;
        count = 0;
        return null;
    }

    private boolean freeQueueNonEmpty() {
        freeTailSeen = Mem.getLongAcquire(region, base + RegionLayout.L_FQ_TAIL);
        return freeTailSeen != freeHead;
    }

    private void observeFreeDepth(long depth) {
        if (depth < minFreeDepth) {
            minFreeDepth = depth;
            Mem.setLongOpaque(region, base + RegionLayout.L_MIN_FREE, depth);
        }
    }

    private void drop(long n, DropCause cause) {
        if (n == 0) {
            return;
        }
        dropped += n;
        Mem.setLongOpaque(region, base + RegionLayout.L_DROPPED, dropped);
        if (cause != DropCause.STOPPED) {
            // One clock read per drop, on the drop path only; a run of drops ends when a buffer is published.
            long now = System.nanoTime();
            drops.dropped(n, now, now, published);
        }
        switch (cause) {
            case PUSH_GATE -> Mem.setLongOpaque(region, base + RegionLayout.L_DROPPED_PUSH, droppedPush += n);
            case POP_GATE -> Mem.setLongOpaque(region, base + RegionLayout.L_DROPPED_POP, droppedPop += n);
            case DEGRADED -> Mem.setLongOpaque(region, base + RegionLayout.L_DROPPED_DEGRADED, droppedDegraded += n);
            case STOPPED -> {
                // no producer-side field: the host counts a stopped lane's records itself (StopProtocol)
            }
            case COLLECTOR, PRODUCER_EXITED -> throw new IllegalArgumentException(cause + " losses are counted by the host");
        }
    }
}
