package dev.dfx.trace;

import java.util.Arrays;

/**
 * The binary min-heap of {@link QueueHeapMerge}: one entry per queue that has a current entry, ordered by (key, queue
 * number), where a key is a timestamp biased by {@link Long#MIN_VALUE} so that signed order is unsigned timestamp
 * order. Besides the heap it remembers each queue's last key, on the heap or not.
 *
 * <h2>Representation</h2>
 * A heap entry is one long: {@code (key - base) << queueBits | queue}. Comparing two entries is then one signed
 * comparison that also breaks ties by queue number, instead of a key comparison, an equality test and a queue
 * comparison: about a third less time per record with 64 interleaved queues. The encoding is exact while every live
 * key lies in a window of 2^(63 - queueBits) ns above {@code base} (2^57 ns, over four years, for 64 queues). A key
 * outside it moves the window ({@link #rebase}: every entry re-encoded, order unchanged); when live keys are too far
 * apart for any window, the heap switches for good to comparing the exact keys (same order, slower).
 *
 * <p>Not thread-safe; no allocation except when {@link #ensureQueues} grows the arrays.
 */
final class QueueHeap {
    /** Heap entries; slot {@code size} holds {@link Long#MAX_VALUE}, after every real entry. */
    private long[] heap;
    /** Per queue number: its last key (exact, biased). */
    private long[] lastKey;
    private int size;
    private int queueBits;
    private long queueMask;
    /** Keys are encoded relative to base; valid while {@code !exactCompare}. */
    private long base;
    private boolean exactCompare;

    QueueHeap(int queues) {
        lastKey = new long[0];
        heap = new long[]{Long.MAX_VALUE};
        ensureQueues(Math.max(1, queues));
    }

    /** Makes room for queue numbers below {@code queues}; new queues start with key 0 (the oldest). */
    void ensureQueues(int queues) {
        int old = lastKey.length;
        if (queues <= old) {
            return;
        }
        int n = Math.max(queues, 2 * old);
        lastKey = Arrays.copyOf(lastKey, n);
        Arrays.fill(lastKey, old, n, Long.MIN_VALUE);
        heap = Arrays.copyOf(heap, n + 1);
        int bits = Math.max(1, 32 - Integer.numberOfLeadingZeros(n - 1));
        if (bits != queueBits) {
            for (int i = 0; i < size; i++) {
                heap[i] &= queueMask; // decode with the old width before it changes
            }
            queueBits = bits;
            queueMask = (1L << bits) - 1;
            rebase(Long.MIN_VALUE, false);
        }
    }

    int size() {
        return size;
    }

    /** @return the queue number at the top; the heap must not be empty */
    int top() {
        return (int) (heap[0] & queueMask);
    }

    /** @return the top queue's key, biased; the heap must not be empty */
    long topKey() {
        return lastKey[top()];
    }

    /** @return queue {@code q}'s last key, biased ({@link Long#MIN_VALUE} before its first) */
    long lastKey(int q) {
        return lastKey[q];
    }

    /** Adds queue {@code q}, which is not on the heap, with biased key {@code key}. */
    void insert(int q, long key) {
        long e = entry(q, key);
        int pos = size++;
        long[] h = heap;
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            if (!before(e, h[parent])) {
                break;
            }
            h[pos] = h[parent];
            pos = parent;
        }
        h[pos] = e;
        h[size] = Long.MAX_VALUE;
    }

    /** Gives the top queue the new biased key {@code key} and restores heap order. */
    void replaceTop(long key) {
        siftDown(entry(top(), key));
    }

    /** Removes the top queue. */
    void removeTop() {
        long last = heap[--size];
        heap[size] = Long.MAX_VALUE;
        if (size > 0) {
            siftDown(last);
        }
    }

    /** Places entry {@code e} at the root, which is free, and moves it down past smaller children. */
    private void siftDown(long e) {
        long[] h = heap;
        int n = size;
        int pos = 0;
        int child;
        if (exactCompare) {
            while ((child = 2 * pos + 1) < n) {
                child += before(h[child + 1], h[child]) ? 1 : 0;
                if (!before(h[child], e)) {
                    break;
                }
                h[pos] = h[child];
                pos = child;
            }
        } else {
            // The same loop with the comparison spelled out: one signed compare (the right child of the last
            // parent may be the MAX_VALUE sentinel, which never wins).
            while ((child = 2 * pos + 1) < n) {
                child += h[child + 1] < h[child] ? 1 : 0;
                long c = h[child];
                if (c >= e) {
                    break;
                }
                h[pos] = c;
                pos = child;
            }
        }
        h[pos] = e;
    }

    /** @return whether entry a sorts before entry b: by key, then queue number */
    private boolean before(long a, long b) {
        if (!exactCompare) {
            return a < b;
        }
        if (a == Long.MAX_VALUE || b == Long.MAX_VALUE) { // the sentinel: after everything
            return b == Long.MAX_VALUE && a != Long.MAX_VALUE;
        }
        long ka = lastKey[(int) (a & queueMask)];
        long kb = lastKey[(int) (b & queueMask)];
        return ka < kb | (ka == kb & (a & queueMask) < (b & queueMask));
    }

    /** Records {@code key} as q's last key and returns q's heap entry, moving the window when the key is outside. */
    private long entry(int q, long key) {
        lastKey[q] = key;
        if (exactCompare) {
            return q;
        }
        long offset = key - base;
        if (Long.compareUnsigned(offset, window()) >= 0) {
            rebase(key, true);
            if (exactCompare) {
                return q;
            }
            offset = key - base;
        }
        return (offset << queueBits) | q;
    }

    /** @return the width of the key window: keys in [base, base + window) encode exactly */
    private long window() {
        return 1L << (63 - queueBits);
    }

    /**
     * Centres the window on the live keys (and {@code extra}, a key about to be added, when {@code withExtra}) and
     * re-encodes every entry; switches to exact comparison when they do not fit in one window. Re-encoding keeps
     * the order, so the heap stays valid.
     */
    private void rebase(long extra, boolean withExtra) {
        if (exactCompare) {
            return;
        }
        long min = withExtra ? extra : Long.MAX_VALUE;
        long max = withExtra ? extra : Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            long k = lastKey[(int) (heap[i] & queueMask)];
            min = Math.min(min, k);
            max = Math.max(max, k);
        }
        if (min > max) { // nothing live: any base will do until the first key
            base = extra - window() / 2;
            return;
        }
        long spread = max - min;
        if (spread < 0 || spread >= window()) { // overflowed, or wider than a window
            exactCompare = true;
            for (int i = 0; i < size; i++) {
                heap[i] &= queueMask;
            }
            return;
        }
        base = min - (window() - spread) / 2;
        for (int i = 0; i < size; i++) {
            int q = (int) (heap[i] & queueMask);
            heap[i] = ((lastKey[q] - base) << queueBits) | q;
        }
    }
}
