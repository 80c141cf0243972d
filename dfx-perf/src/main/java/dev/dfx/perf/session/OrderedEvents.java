package dev.dfx.perf.session;

/**
 * perf's reordering queue ({@code tools/perf/util/ordered-events.c}): records are kept sorted by timestamp,
 * equal timestamps in arrival order. At each FINISHED_ROUND every record up to the flush limit is delivered
 * and the limit moves to the largest timestamp queued so far, so a round's records are released at the next
 * round; the first round releases nothing. The end of the data delivers the rest. Timestamps compare
 * unsigned. Not thread-safe.
 */
final class OrderedEvents {
    private static final class Node {
        final TimedRecord rec;
        final long ts;
        Node prev;
        Node next;

        Node(TimedRecord rec, long ts) {
            this.rec = rec;
            this.ts = ts;
        }
    }

    private final Node head = new Node(null, 0);
    private Node last;
    private long maxTimestamp;
    private long nextFlush;
    private long lastFlush;
    private int queued;
    /** Whether a flush is being taken by {@link #poll}, up to {@link #flushLimit}. */
    private boolean flushing;
    private long flushLimit;
    /** The timestamp of {@link #last} when the flush started (0 when the queue was empty). */
    private long lastBeforeFlush;

    OrderedEvents() {
        head.next = head;
        head.prev = head;
    }

    /**
     * Queues a record with a timestamp that is neither 0 nor {@code ~0}.
     *
     * @return whether it is older than the last record flushed (perf's {@code nr_unordered_events}: it is still
     *         queued and comes out next, out of time order)
     */
    boolean queue(TimedRecord r) {
        long ts = r.time();
        boolean unordered = Long.compareUnsigned(ts, lastFlush) < 0;
        Node n = new Node(r, ts);
        queued++;
        Node at = last;
        last = n;
        if (at == null) {
            insertAfter(head, n);
            maxTimestamp = ts;
            return unordered;
        }
        if (Long.compareUnsigned(at.ts, ts) <= 0) {
            while (Long.compareUnsigned(at.ts, ts) <= 0) {
                if (at.next == head) {
                    insertAfter(at, n);
                    maxTimestamp = ts;
                    return unordered;
                }
                at = at.next;
            }
            insertAfter(at.prev, n);
        } else {
            while (Long.compareUnsigned(at.ts, ts) > 0) {
                if (at.prev == head) {
                    insertAfter(head, n);
                    return unordered;
                }
                at = at.prev;
            }
            insertAfter(at, n);
        }
        return unordered;
    }

    private static void insertAfter(Node p, Node n) {
        n.prev = p;
        n.next = p.next;
        p.next.prev = n;
        p.next = n;
    }

    /**
     * OE_FLUSH__ROUND taken one record at a time: the records up to the current limit become ready for {@link #poll},
     * and the limit moves to the max timestamp. Nothing may be queued until {@link #poll} has returned {@code null}.
     */
    void startRound() {
        startFlush(nextFlush);
        nextFlush = maxTimestamp;
    }

    /** OE_FLUSH__FINAL taken one record at a time: everything queued becomes ready for {@link #poll}. */
    void startFinal() {
        nextFlush = -1L;
        startFlush(-1L);
    }

    private void startFlush(long limit) {
        flushLimit = limit;
        flushing = limit != 0;
        lastBeforeFlush = last != null ? last.ts : 0;
    }

    /**
     * @return the next record of the flush started last, in time order, or {@code null} when it has delivered all
     *         (then records may be queued again). A flush is taken record by record, rather than moved whole into
     *         another queue, so that its work is one short call per record, which the JIT compiles as soon as the
     *         reader's other per-record methods, instead of a loop run once per round.
     */
    TimedRecord poll() {
        if (!flushing) {
            return null;
        }
        Node n = head.next;
        if (n != head && Long.compareUnsigned(n.ts, flushLimit) <= 0) {
            Node next = n.next;
            head.next = next;
            next.prev = head;
            queued--;
            lastFlush = n.ts;
            return n.rec;
        }
        flushing = false;
        if (head.next == head) {
            last = null;
        } else if (Long.compareUnsigned(lastBeforeFlush, flushLimit) <= 0) {
            last = head.prev;
        }
        return null;
    }

}
