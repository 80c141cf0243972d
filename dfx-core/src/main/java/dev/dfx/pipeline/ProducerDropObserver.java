package dev.dfx.pipeline;

import java.util.List;

/**
 * Places in time the drops that producers in other processes ({@link PipelineConfig#externalProducers()}) make at
 * their own gates: push gate, pop gate and degraded drops, which such a producer only counts in its lane's counters
 * ({@code L_DROPPED_PUSH}, {@code L_DROPPED_POP}, {@code L_DROPPED_DEGRADED}), with no time. The drain shard serving
 * the lanes reads those counters on its passes, at most once per {@value #OBSERVE_NS} ns (its loop passes at least
 * every {@value HostIdle#LONG_PARK_NS} ns while it is idle, more often while buffers arrive); when a lane's count grew
 * between two observations at {@code t1 < t2} ({@link System#nanoTime()}, CLOCK_MONOTONIC: the clock of the region's
 * records), it records a drop window {@code [t1, t2]} with the growth. A window is thus placed to within one
 * observation interval. Growth continues the newest window when none of the lane's records got through in between
 * (its total less its producer-side drops did not move), as {@link DropLog} does for in-process producers.
 *
 * <p>The counters are checked, never trusted: a lane whose count goes backwards, overflows, or exceeds the lane's total
 * (which a producer counts first) is no longer observed, and its drops from then on have no window
 * ({@link LaneStats#droppedUnplaced()}). The first observation's {@code t1} is when this observer was built, before
 * any producer could attach.
 *
 * <p>Thread-safety: {@link #poll(long)} and {@link #observeAll(long)} on the thread running the shard (its host loop;
 * a shard moves between threads only through the loop's command queue, a release/acquire hand-over); the windows are
 * read from any thread through the {@link DropLog}s.
 */
final class ProducerDropObserver {
    /** Least time between two observations of a lane, ns. */
    static final long OBSERVE_NS = 1_000_000;

    private final HostTransport transport;
    private final RegionLayout layout;
    private final int[] lanes;
    private final DropLog[] logs;
    private final long[] lastCount;
    private final long[] lastNs;
    private final boolean[] distrusted;
    private long lastObserveNs;

    /**
     * @param lanes the lanes to observe (those whose ready queues the shard serves)
     * @param logs  per lane index (all lanes of the pipeline), where its producer-side windows go
     * @param nowNs now ({@link System#nanoTime()}): the start of the first window
     */
    ProducerDropObserver(HostTransport transport, RegionLayout layout, List<PipelineConfig.LaneSpec> lanes,
            DropLog[] logs, long nowNs) {
        this.transport = transport;
        this.layout = layout;
        this.lanes = lanes.stream().mapToInt(PipelineConfig.LaneSpec::lane).toArray();
        this.logs = logs;
        int n = this.lanes.length;
        this.lastCount = new long[n];
        this.lastNs = new long[n];
        this.distrusted = new boolean[n];
        java.util.Arrays.fill(lastNs, nowNs);
        this.lastObserveNs = nowNs;
    }

    /** Observes every lane when {@value #OBSERVE_NS} ns have passed since the last observation. */
    void poll(long nowNs) {
        if (nowNs - lastObserveNs >= OBSERVE_NS) {
            observeAll(nowNs);
        }
    }

    /** Observes every lane now (the final pass: the producers have ended or were revoked). */
    void observeAll(long nowNs) {
        lastObserveNs = nowNs;
        for (int i = 0; i < lanes.length; i++) {
            if (!distrusted[i]) {
                observe(i, nowNs);
            }
        }
    }

    private void observe(int i, long nowNs) {
        long b = layout.lane(lanes[i]);
        // the drop counters before the total: a producer counts a record in the total first
        long push = transport.getLongAcquire(b + RegionLayout.L_DROPPED_PUSH);
        long pop = transport.getLongAcquire(b + RegionLayout.L_DROPPED_POP);
        long degraded = transport.getLongAcquire(b + RegionLayout.L_DROPPED_DEGRADED);
        long total = transport.getLongAcquire(b + RegionLayout.L_TOTAL);
        long count = push + pop + degraded;
        if (push < 0 || pop < 0 || degraded < 0 || count < 0 || count < lastCount[i] || count > total) {
            distrusted[i] = true;  // a hostile or corrupt lane: what it drops from now on is unplaced
            return;
        }
        if (count > lastCount[i]) {
            logs[lanes[i]].dropped(count - lastCount[i], lastNs[i], nowNs, total - count);
            lastCount[i] = count;
        }
        lastNs[i] = nowNs;
    }
}
