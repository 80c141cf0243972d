package dev.dfx.perf.session;

import java.util.function.Consumer;

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
    private int unordered;

    OrderedEvents() {
        head.next = head;
        head.prev = head;
    }

    /** Queues a record with a timestamp that is neither 0 nor {@code ~0}. */
    void queue(TimedRecord r) {
        long ts = r.time();
        if (Long.compareUnsigned(ts, lastFlush) < 0) {
            unordered++;
        }
        Node n = new Node(r, ts);
        queued++;
        Node at = last;
        last = n;
        if (at == null) {
            insertAfter(head, n);
            maxTimestamp = ts;
            return;
        }
        if (Long.compareUnsigned(at.ts, ts) <= 0) {
            while (Long.compareUnsigned(at.ts, ts) <= 0) {
                if (at.next == head) {
                    insertAfter(at, n);
                    maxTimestamp = ts;
                    return;
                }
                at = at.next;
            }
            insertAfter(at.prev, n);
        } else {
            while (Long.compareUnsigned(at.ts, ts) > 0) {
                if (at.prev == head) {
                    insertAfter(head, n);
                    return;
                }
                at = at.prev;
            }
            insertAfter(at, n);
        }
    }

    private static void insertAfter(Node p, Node n) {
        n.prev = p;
        n.next = p.next;
        p.next.prev = n;
        p.next = n;
    }

    /** OE_FLUSH__ROUND: delivers records up to the current limit, then sets the limit to the max timestamp. */
    void flushRound(Consumer<TimedRecord> deliver) {
        doFlush(deliver);
        nextFlush = maxTimestamp;
    }

    /** OE_FLUSH__FINAL: delivers everything queued. */
    void flushFinal(Consumer<TimedRecord> deliver) {
        nextFlush = -1L;
        doFlush(deliver);
    }

    private void doFlush(Consumer<TimedRecord> deliver) {
        long limit = nextFlush;
        long lastTs = last != null ? last.ts : 0;
        if (limit == 0) {
            return;
        }
        Node n = head.next;
        while (n != head && Long.compareUnsigned(n.ts, limit) <= 0) {
            Node next = n.next;
            n.prev.next = next;
            next.prev = n.prev;
            queued--;
            deliver.accept(n.rec);
            lastFlush = n.ts;
            n = next;
        }
        if (head.next == head) {
            last = null;
        } else if (Long.compareUnsigned(lastTs, limit) <= 0) {
            last = head.prev;
        }
    }

    /** @return records that arrived older than the last flushed one ("out of order events") */
    int unordered() {
        return unordered;
    }
}
