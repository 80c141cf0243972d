package dev.dfx.java;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * One lane of the region (kind 0, user events) and its writer: the current buffer, the gates, the counters and the
 * lane's string table, exactly as {@code include/dfx.h} keeps them (the producer protocol of
 * {@code docs/region-abi.md} and the producer rules of {@code docs/pipeline.md}: total counted first; a full buffer
 * published before a replacement is taken; two gates, each with one backstop deadline; degraded after an expiry; a
 * closed lane writes nothing more).
 *
 * <p>Not thread-safe: one thread writes a lane at a time. A platform thread keeps its lane for its life; a lane
 * whose thread has ended is handed to another thread only after {@link Thread#isAlive()} returned false, which
 * orders the ended thread's writes before the new one's (JLS 17.4.4). A lane shared by virtual threads is taken with
 * {@link #tryLock()} (acquire) and given back with {@link #unlock()} (release) around each use.
 */
final class Lane {
    private static final int PUSH = 1, POP = 2, DEGRADED = 3;

    private final Region r;
    final int index;
    private final int capacity;
    private final boolean dropPolicy;
    private final long entry; // the lane-table entry
    private final long head; // the lane state
    private final long rq; // the ready queue
    private final long strings; // the string table, or -1 when it has no room for an entry
    private final long stringBytes;
    private final int producer;
    private final int kind;

    private MemorySegment buf;
    private int count;
    private int limit;
    private long total;
    private long handle;
    private long seq;
    private long published, dropped, droppedPush, droppedPop, droppedDegraded;
    private long expiries, stalls, stallTotal, stallLongest;
    private long freeHead, freeTailSeen, minFree, maxDepth;
    private int rqTail;
    private boolean degraded, closed;

    private long stringsUsed = Region.STRINGS_START;
    private final HashMap<String, Integer> interned = new HashMap<>();
    /**
     * A direct-mapped cache in front of {@link #interned}, by the string's identity at its hash's slot: a program's
     * names are a few constants (an executor task writes two or three of them by turns), found here without the
     * map's lookup and boxing.
     */
    private final String[] recentNames = new String[RECENT];
    private final int[] recentIds = new int[RECENT];
    private static final int RECENT = 64;

    /** The platform thread that writes the lane, or null for a lane virtual threads share. */
    Thread owner;
    /** The program named the lane ({@link Dfx#threadName}): its end does not take the thread's name again. */
    private boolean named;
    private final AtomicBoolean locked = new AtomicBoolean();

    /**
     * Takes over lane {@code index}, whose owner word this process has just claimed: writes its thread name, then
     * attaches it (CAS idle to attached, which publishes the name; a lane in any other state is the host's and is
     * written no more).
     *
     * @param threadName the name of the thread that claims it (cut to 15 bytes of UTF-8)
     * @param given      the program gave the name ({@link Dfx#threadName}): the lane's end keeps it
     */
    Lane(Region r, int index, String threadName, boolean given) {
        this.r = r;
        this.index = index;
        long t = r.laneEntry(index);
        entry = t;
        producer = r.get32(t + Region.T_PRODUCER);
        int kind = r.get32(t + Region.T_KIND);
        long k = r.kindTable + 16L * Integer.toUnsignedLong(kind); // the lane's own pool: its size and policy
        this.kind = kind;
        capacity = r.get32(k + Region.K_RECORDS_PER_BUFFER);
        dropPolicy = r.get32(k + Region.K_POLICY) == 1;
        head = r.laneStates + r.laneStride * index;
        rq = r.readyQueues + r.readyQueueStride * Integer.toUnsignedLong(producer);
        strings = r.stringTableBytes >= Region.PAD ? r.stringTables + (long) r.stringTableBytes * index : -1;
        stringBytes = r.stringTableBytes;
        boolean sound = Integer.compareUnsigned(producer, r.producers) < 0
                && Integer.compareUnsigned(kind, r.get32(Region.H_KINDS)) < 0
                && r.get32(k + Region.K_RECORD_SIZE) == Region.RECORD_BYTES && capacity >= 1;
        rqTail = sound ? Integer.remainderUnsigned(r.get32(rq + Region.RQ_TAIL), r.readyQueueSize) : 0;
        freeHead = r.get64(head + Region.L_FQ_HEAD);
        freeTailSeen = r.acquire64(head + Region.L_FQ_TAIL);
        minFree = freeTailSeen - freeHead;
        r.relaxed64(head + Region.L_MIN_FREE, minFree);
        name(threadName, given);
        // A lane is claimed once, so it is idle; anything else is the host's (or corrupt): write nothing to it.
        closed = !sound || !r.cas32(head + Region.L_ATTACH, Region.LANE_IDLE, Region.LANE_ATTACHED);
    }

    /**
     * Writes the lane's thread name into its lane-table entry (two 8-byte opaque stores: the host reads the bytes
     * opaquely and keeps the name it reads after the lane ended).
     *
     * @param threadName the name (cut to 15 bytes of UTF-8 at a character boundary)
     * @param given      the program gave it ({@link Dfx#threadName}): the lane's end does not replace it
     */
    void name(String threadName, boolean given) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(ThreadNames.entryBytes(threadName))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        r.relaxed64(entry + Region.T_NAME, b.getLong(0));
        r.relaxed64(entry + Region.T_NAME + 8, b.getLong(8));
        named = given;
    }

    private long flowSeq;

    /** @return the lane's next flow number, 1.. (30 bits, wrapping) */
    long nextFlow() {
        flowSeq = (flowSeq + 1) & ((1L << 30) - 1);
        return flowSeq;
    }

    boolean tryLock() {
        return !locked.get() && locked.compareAndSet(false, true);
    }

    void unlock() {
        locked.set(false);
    }

    /**
     * Writes one record: counts it in {@code total} first, stores its four words in the current buffer and releases
     * {@code committed}; a full buffer (or none) goes through {@link #switchBuffer}.
     *
     * @param type  the record type (1..8)
     * @param flags the flags byte ({@link UserEvents#FLAG_F64} when the value holds a double's bits)
     * @param name  the name, or null
     * @param time  CLOCK_MONOTONIC ns
     * @param value the value word
     * @param key   the argument key, or null
     */
    void emit(int type, int flags, String name, long time, long value, String key) {
        long w1 = type | (long) flags << 8 | (intern(name) & 0xFFFFFFFFL) << 32;
        long w3 = intern(key) & 0xFFFFFFFFL;
        countTotal(1);
        store(time, w1, value, w3);
    }

    /**
     * Writes two records as one write: both are counted in {@code total} before the first is stored, so a writer
     * stopped between them (the JVM halting at exit while the first waits at a gate) leaves both counted, the host
     * finding them dropped ({@code producer_exited}) rather than one counted and the other never seen.
     *
     * @param type  the first record's type (1..8); the second's is {@code type2}
     * @param name  the first record's name, or null
     * @param time  the first record's time (CLOCK_MONOTONIC ns, or TSC ticks with the flag)
     * @param value the first record's value word
     * @param type2 the second record's type
     * @param name2 the second record's name, or null
     * @param time2 the second record's time
     * @param value2 the second record's value word
     * @param flags the flags byte of both records
     */
    void emitPair(int type, String name, long time, long value, int type2, String name2, long time2, long value2,
            int flags) {
        long w1 = type | (long) flags << 8 | (intern(name) & 0xFFFFFFFFL) << 32;
        long v1 = type2 | (long) flags << 8 | (intern(name2) & 0xFFFFFFFFL) << 32;
        long none = Region.NO_STRING & 0xFFFFFFFFL;
        countTotal(2);
        store(time, w1, value, none);
        store(time2, v1, value2, none);
    }

    /** Counts records in {@code total} before they are stored: the count comes first, as the protocol asks. */
    private void countTotal(int n) {
        long t = total + n;
        total = t;
        r.relaxed64(head + Region.L_TOTAL, t);
    }

    /** Stores one counted record in the current buffer and releases {@code committed}, or switches buffers. */
    private void store(long time, long w1, long value, long w3) {
        int c = count;
        if (c < limit) {
            long at = (long) c * Region.RECORD_BYTES;
            MemorySegment b = buf;
            b.set(Region.U64, at, time);
            b.set(Region.U64, at + 8, w1);
            b.set(Region.U64, at + 16, value);
            b.set(Region.U64, at + 24, w3);
            count = c + 1;
            r.release64(head + Region.L_COMMITTED, c + 1);
            return;
        }
        switchBuffer(time, w1, value, w3);
    }

    private int intern(String s) {
        if (s == null) {
            return Region.NO_STRING;
        }
        int slot = s.hashCode() & (RECENT - 1);
        if (recentNames[slot] == s) {
            return recentIds[slot];
        }
        Integer id = interned.get(s);
        int v = id != null ? id : internSlow(s);
        recentNames[slot] = s;
        recentIds[slot] = v;
        return v;
    }

    /** Appends the string to the lane's table (entry first, then {@code used} released); full: no string. */
    private int internSlow(String s) {
        byte[] utf8 = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long need = 4 + ((utf8.length + 3L) & ~3L);
        int id = Region.NO_STRING;
        if (strings >= 0 && stringsUsed + need <= stringBytes) {
            long at = strings + stringsUsed;
            r.put32(at, utf8.length);
            MemorySegment.copy(MemorySegment.ofArray(utf8), 0, r.mem, at + 4, utf8.length);
            r.mem.asSlice(at + 4 + utf8.length, need - 4 - utf8.length).fill((byte) 0);
            id = (int) stringsUsed;
            stringsUsed += need;
            r.release64(strings, stringsUsed);
        }
        if (interned.size() < 65536) { // the table bounds what is appended; the map only what is remembered
            interned.put(s, id);
        }
        return id;
    }

    /** The current buffer is full or there is none: publish it first, then claim a replacement. */
    private void switchBuffer(long w0, long w1, long w2, long w3) {
        if (!closed && r.acquire32(head + Region.L_ATTACH) >= Region.LANE_CLOSED) {
            closed = true; // the host closed or revoked the lane at its stop
        }
        if (closed) {
            drop(1, DEGRADED);
            return;
        }
        if (handle != 0 && !publish()) {
            put(w0, w1, w2, w3); // the buffer's records were dropped and it is reused: this record goes first
            return;
        }
        int c = pop();
        if (c != 0) {
            drop(1, c);
            return;
        }
        put(w0, w1, w2, w3);
    }

    private void put(long w0, long w1, long w2, long w3) {
        buf.set(Region.U64, 0, w0);
        buf.set(Region.U64, 8, w1);
        buf.set(Region.U64, 16, w2);
        buf.set(Region.U64, 24, w3);
        count = 1;
        r.release64(head + Region.L_COMMITTED, 1);
    }

    private boolean pushReady() {
        int h = r.acquire32(rq + Region.RQ_HEAD);
        int next = rqTail + 1 == r.readyQueueSize ? 0 : rqTail + 1;
        return next != h;
    }

    private boolean popReady() {
        freeTailSeen = r.acquire64(head + Region.L_FQ_TAIL);
        return freeTailSeen != freeHead;
    }

    /** One gate: passes at once, or (BLOCK, not degraded) waits against one deadline taken before the loop. */
    private int gate(boolean push) {
        int cause = push ? PUSH : POP;
        if (push ? pushReady() : popReady()) {
            setDegraded(false);
            return 0;
        }
        if (degraded) {
            return DEGRADED;
        }
        if (dropPolicy) {
            return cause;
        }
        long start = System.nanoTime();
        long deadline = start + r.backstopNs;
        for (int step = 0;; step++) {
            pause(step);
            if (push ? pushReady() : popReady()) {
                waited(start, System.nanoTime());
                return 0;
            }
            long now = System.nanoTime();
            if (now - deadline >= 0) {
                waited(start, now);
                r.relaxed64(head + Region.L_EXPIRIES, ++expiries);
                setDegraded(true);
                return cause;
            }
        }
    }

    /** Spins, yields, then parks 50 us doubling to 1.6 ms, as dfx.h and the pipeline's Backoff. */
    private static void pause(int step) {
        if (step < 64) {
            Thread.onSpinWait();
        } else if (step < 128) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(50_000L << Math.min(step - 128, 5));
        }
    }

    private void waited(long start, long end) {
        long d = end - start;
        if (d > r.stallThresholdNs) {
            // the window first, then its count (release): the host copies windows up to the count it acquires
            long w = head + Region.L_STALL_RING + 16L * Long.remainderUnsigned(stalls, Region.STALL_RING_WINDOWS);
            r.relaxed64(w, start);
            r.relaxed64(w + 8, end);
            r.release64(head + Region.L_STALL_WINDOWS, stalls + 1);
            r.relaxed64(head + Region.L_STALL_COUNT, ++stalls);
            r.relaxed64(head + Region.L_STALL_TOTAL, stallTotal += d);
            if (d > stallLongest) {
                r.relaxed64(head + Region.L_STALL_LONGEST, stallLongest = d);
            }
        }
    }

    private void setDegraded(boolean d) {
        if (degraded != d) {
            degraded = d;
            r.relaxed32(head + Region.L_DEGRADED, d ? 1 : 0);
        }
    }

    private void drop(long n, int cause) {
        if (n == 0) {
            return;
        }
        r.relaxed64(head + Region.L_DROPPED, dropped += n);
        if (cause == PUSH) {
            r.relaxed64(head + Region.L_DROPPED_PUSH, droppedPush += n);
        } else if (cause == POP) {
            r.relaxed64(head + Region.L_DROPPED_POP, droppedPop += n);
        } else {
            r.relaxed64(head + Region.L_DROPPED_DEGRADED, droppedDegraded += n);
        }
    }

    /** Push gate, entry, tail release; on failure the buffer's records are dropped and the buffer kept. */
    private boolean publish() {
        int c = gate(true);
        if (c != 0) {
            drop(count, c);
            count = 0;
            r.release64(head + Region.L_COMMITTED, 0);
            return false;
        }
        long e = rq + Region.RQ_ENTRIES + 32L * rqTail;
        r.put32(e, index);
        r.put32(e + 4, 0);
        r.put64(e + 8, handle);
        r.put64(e + 16, seq);
        r.put32(e + 24, count);
        r.put32(e + 28, 0);
        rqTail = rqTail + 1 == r.readyQueueSize ? 0 : rqTail + 1;
        r.release32(rq + Region.RQ_TAIL, rqTail);
        // current and committed first: a host finding current still set knows the buffer by its seq
        r.relaxed64(head + Region.L_CURRENT, 0);
        r.release64(head + Region.L_COMMITTED, 0);
        r.relaxed64(head + Region.L_PUBLISHED, published += count);
        r.relaxed64(head + Region.L_SEQ, ++seq);
        int h = Integer.remainderUnsigned(r.get32(rq + Region.RQ_HEAD), r.readyQueueSize);
        long depth = (rqTail + r.readyQueueSize - h) % r.readyQueueSize;
        if (depth > maxDepth) {
            r.relaxed64(rq + Region.RQ_MAX_DEPTH, maxDepth = depth);
        }
        handle = 0;
        buf = null;
        limit = 0;
        count = 0;
        return true;
    }

    private void observeFree(long depth) {
        if (depth < minFree) {
            r.relaxed64(head + Region.L_MIN_FREE, minFree = depth);
        }
    }

    /** Pop gate, then the slot at the free-queue head. @return 0 with a buffer held, or the cause */
    private int pop() {
        if (!popReady()) {
            observeFree(0);
        }
        int c = gate(false);
        if (c != 0) {
            return c;
        }
        long h = freeHead;
        long slot = Long.remainderUnsigned(h, r.slotCount);
        long next = r.get64(head + Region.L_FQ_SLOTS + 8 * slot);
        freeHead = h + 1;
        r.release64(head + Region.L_FQ_HEAD, h + 1);
        observeFree(freeTailSeen - (h + 1));
        MemorySegment b = r.resolve(next, kind, capacity);
        if (b == null) {
            return POP; // a corrupt slot is no buffer; the host sees the lane's seq go on
        }
        r.relaxed64(head + Region.L_COMMITTED, 0);
        r.relaxed64(head + Region.L_CURRENT, next);
        buf = b;
        handle = next;
        limit = capacity;
        count = 0;
        return 0;
    }

    /** Publishes a partly filled buffer (one push-gate wait at most). */
    void flush() {
        if (!closed && handle != 0 && count > 0) {
            publish();
        }
    }

    /**
     * Flushes and detaches the lane (CAS attached to detached; a lane the host closed keeps its state), after writing
     * its thread's name again (a thread renamed after its first record), unless the program named the lane.
     */
    void close() {
        if (closed) {
            return;
        }
        flush();
        if (!named && owner != null) {
            name(owner.getName(), false);
        }
        closed = true;
        r.cas32(head + Region.L_ATTACH, Region.LANE_ATTACHED, Region.LANE_DETACHED);
    }
}
