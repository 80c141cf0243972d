package dev.dfx.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * A bounded series of one queue's depth as the host sees it ({@link DepthSample}), kept in a {@link WindowLog}: a
 * lane's free queue, or a producer's ready queue. The host reports the depth wherever it already reads the queue
 * ({@link #observe}); only a change is recorded. A change starts a new interval when the newest one began at least
 * {@code intervalNs} earlier and fewer than {@code cap} are kept; otherwise it is folded into the newest interval (its
 * end, extremes and last depth move), so memory stays bounded and no extreme is lost. Depths are packed into the
 * window's count, {@value #BITS} bits each: a free queue has at most 4096 slots; a ready queue's backlog beyond
 * {@code 2^21 - 1} entries (a queue of more than two million entries) is kept as {@code 2^21 - 1}.
 *
 * <p>Thread-safety: written by one thread at a time (a free queue's: the startup fill, then the drain shard that
 * serves the lane, hand-over by thread start; a ready queue's: the drain shard that serves it, on its host loop or on
 * the thread that stops a pipeline without host threads); {@link #samples()} from any thread ({@link WindowLog}'s
 * ordering).
 */
final class DepthLog {
    private static final int BITS = 21;
    private static final long MASK = (1L << BITS) - 1;

    private final WindowLog log;
    private final long intervalNs;
    private long last = -1;
    private long min;
    private long max;
    private long newestStartNs;

    /**
     * @param cap        most intervals kept, {@code >= 1}
     * @param intervalNs shortest interval before a change starts a new one, ns
     */
    DepthLog(int cap, long intervalNs) {
        this.log = new WindowLog(cap);
        this.intervalNs = intervalNs;
    }

    /** Writer only: the queue holds {@code depth} buffers now ({@code >= 0}; above {@code 2^21 - 1} kept as that). */
    void observe(long observed) {
        long depth = Math.min(observed, MASK);
        if (depth == last) {
            return;
        }
        last = depth;
        long now = System.nanoTime();
        if (log.size() > 0 && (now - newestStartNs < intervalNs || log.full())) {
            min = Math.min(min, depth);
            max = Math.max(max, depth);
            log.setLast(now, pack(min, max, depth));
            return;
        }
        min = depth;
        max = depth;
        newestStartNs = now;
        log.add(now, now, pack(depth, depth, depth));
    }

    private static long pack(long min, long max, long last) {
        return (min & MASK) << (2 * BITS) | (max & MASK) << BITS | (last & MASK);
    }

    /** Any thread. @return the kept intervals, oldest first */
    List<DepthSample> samples() {
        List<DepthSample> out = new ArrayList<>();
        log.forEach((s, e, c) -> out.add(new DepthSample(s, e, c >>> (2 * BITS) & MASK, c >>> BITS & MASK, c & MASK)));
        return out;
    }
}
