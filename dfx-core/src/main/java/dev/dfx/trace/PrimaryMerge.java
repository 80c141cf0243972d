package dev.dfx.trace;

/**
 * A primary stream interleaved with the queues of a {@link QueueHeapMerge}, as perf's vpa-dtl decoder interleaves
 * DTL entries with ordinary perf records ({@code powerpc_vpadtl_process_event} runs before each delivered event and
 * emits queued entries strictly older than it).
 *
 * <p>Order: before a primary record with timestamp t is handed out, every queued entry whose key is older than t
 * (unsigned) is handed out, in the merge's own order. On a tie the primary record comes first: a queued entry with
 * timestamp t comes out after the primary record at t and before the first primary record that is strictly later
 * (perf: "each DTL entry is emitted just before the first perf event whose timestamp is strictly greater"). A
 * primary record with timestamp 0 is handed out at once, as perf does not run the decoder for {@code time == 0}.
 * When the primary stream is exhausted the remaining queued entries follow ({@link Tail#DRAIN}); perf's vpa-dtl
 * decoder instead never emits them (its {@code flush} is empty), which {@link Tail#DROP} mirrors.
 *
 * <p>The primary stream is expected in timestamp order (perf delivers it sorted); a primary record older than one
 * before it simply flushes nothing.
 *
 * <p>Not thread-safe; allocation-free per entry.
 *
 * @param <P> primary stream type
 * @param <Q> queue type
 */
public final class PrimaryMerge<P extends MergeQueue, Q extends MergeQueue> {
    /** Returned by {@link #next()} when the primary stream's current record is next. */
    public static final int PRIMARY = -2;

    /** What happens to queued entries left when the primary stream is exhausted. */
    public enum Tail {
        /** Hand them out, oldest first (dfx's default: nothing collected is lost). */
        DRAIN,
        /** Hand out nothing more (perf's vpa-dtl decoder: entries later than the last perf event are not emitted). */
        DROP
    }

    private final P primary;
    private final QueueHeapMerge<Q> queues;
    private final boolean drainTail;
    private boolean primaryPending;

    /**
     * A merge that drains the queues after the primary stream ({@link Tail#DRAIN}).
     *
     * @param primary the already ordered primary stream
     * @param queues  the queued entries
     */
    public PrimaryMerge(P primary, QueueHeapMerge<Q> queues) {
        this(primary, queues, Tail.DRAIN);
    }

    /**
     * @param primary the already ordered primary stream
     * @param queues  the queued entries; the caller may keep using it for {@link QueueHeapMerge#queue} and
     *                {@link QueueHeapMerge#refresh}
     * @param tail    what to do with queued entries left after the last primary record
     */
    public PrimaryMerge(P primary, QueueHeapMerge<Q> queues, Tail tail) {
        this.primary = primary;
        this.queues = queues;
        this.drainTail = tail == Tail.DRAIN;
    }

    /**
     * Consumes what was handed out last and hands out the next entry.
     *
     * @return {@link #PRIMARY} when the primary stream's current record is next (read it from {@link #primary()}),
     *         a queue index when that queue's current entry is next (read it from {@link #queues()}), or
     *         {@link QueueHeapMerge#NONE} when both are exhausted (with {@link Tail#DROP}: when the primary stream is)
     */
    public int next() {
        if (primaryPending) {
            primaryPending = false;
            primary.advance();
        }
        if (!primary.hasEntry()) {
            return drainTail ? queues.next() : QueueHeapMerge.NONE;
        }
        int q = queues.nextBefore(primary.timestamp());
        if (q != QueueHeapMerge.NONE) {
            return q;
        }
        primaryPending = true;
        return PRIMARY;
    }

    /** @return the primary stream */
    public P primary() {
        return primary;
    }

    /** @return the queue merge */
    public QueueHeapMerge<Q> queues() {
        return queues;
    }
}
