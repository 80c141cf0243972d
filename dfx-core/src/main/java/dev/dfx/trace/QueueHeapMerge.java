package dev.dfx.trace;

import java.util.Arrays;
import java.util.List;

/**
 * The queue + heap merge (perf's auxtrace technique, {@code tools/perf/util/auxtrace.c} and the vpa-dtl decoder
 * {@code powerpc-vpadtl.c}): {@link MergeQueue}s, each in its own time order, and a binary min-heap holding one
 * entry per non-empty queue, keyed by the timestamp of that queue's current entry. Each call to {@link #next()}
 * yields the queue whose current entry is the oldest; the caller reads the entry from that queue; the queue is
 * advanced and its heap key updated at the following call. Stopping anywhere (for instance at a bound, see
 * {@link #nextBefore(long)}) leaves every queue exactly where it was, mid-buffer included, and the next call resumes
 * there.
 *
 * <h2>Order</h2>
 * Entries come out by ascending (key, queue index, position in the queue), where queue index is the order of
 * {@link #add}: equal timestamps keep queue order (lower index first), then in-queue order. When every queue's
 * timestamps are non-decreasing this is exactly a stable sort by timestamp of all queues concatenated in index
 * order. (perf's vpa-dtl decoder differs on ties between queues: the queue it pops keeps running through entries
 * equal to the next queue's key, {@code ts = next_top + 1}; here the lower queue index always goes first, so the
 * order depends on the input alone, not on where a previous call stopped.) A queue's key never decreases: as in perf's decoder ({@code vpaq->timestamp = max(vpaq->timestamp, ts)}),
 * an entry older than an earlier entry of its own queue is keyed with that earlier timestamp, so it comes out right
 * after its predecessor; such entries are counted in {@link #outOfOrderEntries()}.
 *
 * <p>Timestamps are unsigned 64-bit nanoseconds.
 *
 * <h2>Cost</h2>
 * One heap sift per entry, O(log q) for q non-empty queues, with no allocation (the heap is one primitive array; see
 * {@link QueueHeap}). {@link #add} may allocate when the arrays grow.
 *
 * <p>Not thread-safe: one thread drives a merge and its queues.
 *
 * @param <Q> the queue type, so that callers read entries without casts
 */
public final class QueueHeapMerge<Q extends MergeQueue> {
    /** Returned by {@link #next()} when every queue is exhausted, and by {@link #nextBefore} when no entry is older. */
    public static final int NONE = -1;

    private Object[] queues;
    private boolean[] onHeap;
    private int queueCount;
    private final QueueHeap heap;

    /** Queue whose current entry was handed out and is consumed at the next call, or NONE. */
    private int pending = NONE;
    private long outOfOrder;

    /** An empty merge; add queues with {@link #add}. */
    public QueueHeapMerge() {
        this(16);
    }

    /** @param expectedQueues initial capacity (grows as needed) */
    public QueueHeapMerge(int expectedQueues) {
        int n = Math.max(1, expectedQueues);
        queues = new Object[n];
        onHeap = new boolean[n];
        heap = new QueueHeap(n);
    }

    /**
     * @param queues the queues; list order is index order (the tie order)
     * @param <Q>    the queue type
     * @return a merge of {@code queues}
     */
    public static <Q extends MergeQueue> QueueHeapMerge<Q> of(List<? extends Q> queues) {
        QueueHeapMerge<Q> m = new QueueHeapMerge<>(queues.size());
        for (Q q : queues) {
            m.add(q);
        }
        return m;
    }

    /**
     * Adds a queue, which may be empty. Allowed at any time, also in the middle of a merge (a new CPU appearing);
     * its entries then compete from the next call on.
     *
     * @param queue the queue, possibly empty
     * @return the queue's index: its rank on timestamp ties, and its handle in {@link #queue} and {@link #refresh}
     */
    public int add(Q queue) {
        settle();
        if (queueCount == queues.length) {
            int n = queueCount * 2;
            queues = Arrays.copyOf(queues, n);
            onHeap = Arrays.copyOf(onHeap, n);
        }
        int index = queueCount++;
        heap.ensureQueues(queueCount);
        queues[index] = queue;
        if (queue.hasEntry()) {
            insert(index, queue.timestamp());
        }
        return index;
    }

    /**
     * @param index a queue index from {@link #add}
     * @return the queue with this index
     * @throws IndexOutOfBoundsException when there is no such queue
     */
    @SuppressWarnings("unchecked")
    public Q queue(int index) {
        if (index < 0 || index >= queueCount) {
            throw new IndexOutOfBoundsException("queue " + index + " of " + queueCount);
        }
        return (Q) queues[index];
    }

    /** @return queues added so far */
    public int queueCount() {
        return queueCount;
    }

    /**
     * Consumes the entry handed out by the previous call, if any, and hands out the oldest entry of all queues.
     *
     * @return the index of the queue whose current entry is next; read the entry from {@link #queue(int)} before
     *         the next call to any method of this merge. {@link #NONE} when every queue is exhausted.
     */
    public int next() {
        settle();
        if (heap.size() == 0) {
            return NONE;
        }
        return pending = heap.top();
    }

    /**
     * Like {@link #next()}, but hands out an entry only when its key is strictly older than {@code bound}: the hook
     * for a primary stream. Call it with a primary record's timestamp t until it returns {@link #NONE}, then emit
     * the primary record: every queued entry older than t comes out before that record, and an entry whose
     * timestamp equals t comes out after it (perf's vpa-dtl {@code process_queues} stops at
     * {@code heap_top.ordinal >= timestamp}). A bound of 0 hands out nothing (perf skips events whose time is 0).
     *
     * @param bound unsigned nanoseconds
     * @return the index of the queue whose current entry is next, or {@link #NONE} when no entry is older than
     *         {@code bound}; every queue then stays where it is and later calls resume there
     */
    public int nextBefore(long bound) {
        settle();
        if (heap.size() == 0 || heap.topKey() >= (bound ^ Long.MIN_VALUE)) {
            return NONE;
        }
        return pending = heap.top();
    }

    /**
     * Puts a queue that had run dry back on the heap after more data was appended to it (perf's
     * {@code update_queues} on {@code new_data}). Harmless for a queue that is already on the heap.
     *
     * @param index the queue's index
     * @return whether the queue now has a current entry
     */
    public boolean refresh(int index) {
        settle();
        Q q = queue(index);
        if (onHeap[index]) {
            return true;
        }
        if (!q.hasEntry()) {
            return false;
        }
        insert(index, q.timestamp());
        return true;
    }

    /** @return whether some queue still has an entry (consumes the entry handed out last) */
    public boolean hasNext() {
        settle();
        return heap.size() > 0;
    }

    /**
     * @return entries seen so far whose timestamp was older than an earlier entry of the same queue (keyed with the
     *         earlier timestamp; see the class comment)
     */
    public long outOfOrderEntries() {
        return outOfOrder;
    }

    /** Consumes the entry handed out last: advances its queue and re-keys or removes the heap top. */
    private void settle() {
        int q = pending;
        if (q == NONE) {
            return;
        }
        pending = NONE;
        MergeQueue src = (MergeQueue) queues[q];
        src.advance();
        if (src.hasEntry()) {
            heap.replaceTop(key(q, src.timestamp()));
        } else {
            onHeap[q] = false;
            heap.removeTop();
        }
    }

    private void insert(int q, long timestamp) {
        onHeap[q] = true;
        heap.insert(q, key(q, timestamp));
    }

    /** @return the biased heap key of queue {@code q}'s current entry, never below its previous key */
    private long key(int q, long timestamp) {
        long k = timestamp ^ Long.MIN_VALUE;
        long previous = heap.lastKey(q);
        if (k < previous) {
            outOfOrder++;
            return previous;
        }
        return k;
    }
}
