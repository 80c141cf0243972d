package dev.dfx.pipeline;

import java.util.List;

/**
 * Counts and stall diagnostics of one lane, exact (not sampled). Immutable.
 *
 * <p>While the pipeline runs, records still in a current buffer or in flight to the collector are neither
 * collected nor dropped, so {@link #silentLoss()} is meaningful only in the snapshot {@link Pipeline#stop()}
 * returns.
 *
 * @param lane                lane index
 * @param kind                buffer kind of the lane
 * @param producer            producer (writer thread, ready queue) of the lane
 * @param total               every record attempt, counted before anything can fail
 * @param collected           records a {@link Collector} accepted without throwing
 * @param droppedPushGate     records in buffers dropped because the ready queue had no room
 * @param droppedPopGate      records dropped because the lane had no buffer (free queue empty)
 * @param droppedDegraded     records dropped at once while the lane was degraded
 * @param droppedCollector    records in buffers whose collector call threw
 * @param droppedExited       records a producer in another process counted but never committed before it ended
 * @param droppedStopped      records the pipeline stopped without (see {@link DropCause#STOPPED})
 * @param backstopExpiries    gate waits (and payload-arena waits) that ran their whole backstop
 * @param stallCount          waits longer than the stall threshold
 * @param stallTotalNs        their summed duration, ns
 * @param stallLongestNs      the longest of them, ns
 * @param stallWindows        each stall's (start, end), oldest first; at most the configured cap
 * @param stallWindowsOmitted stalls counted in {@code stallCount} whose window was not kept (cap reached)
 * @param minFreeDepth        fewest buffers left in the lane's free queue right after the producer took one
 *                            (0 when it found the queue empty)
 * @param degraded            the lane is degraded right now (drops instead of waiting until the host moves)
 * @param failure             why the host stopped trusting the lane (a producer-written field out of bounds), or
 *                            {@code null} while it is sound
 * @param collectNs           time the lane's collector calls took in all, ns
 * @param collectLongestNs    the lane's longest single collector call (one still running counts up to the
 *                            snapshot), ns: the lane whose collector was slow has the largest
 * @param dropWindows         when the lane's drops happened: each run of consecutive drops, ordered and disjoint,
 *                            at most the configured cap ({@link PipelineConfig#maxDropWindows()}). In the final
 *                            snapshot their counts add up to {@link #dropped()}, except the drops a producer in
 *                            another process counts itself (push gate, pop gate, degraded), whose times the host does
 *                            not learn ({@link #droppedUnplaced()})
 * @param dropRuns            runs of consecutive drops recorded; more than {@code dropWindows} when runs that
 *                            overlapped (host-side and producer-side) were joined or the cap was reached
 * @param freeDepthSamples    the lane's free-queue depth over time as its drain shard saw it (each time it topped
 *                            the queue up, or found the refill held back), at most
 *                            {@link PipelineConfig#maxDepthSamples()} intervals; the producer's own low point is
 *                            {@code minFreeDepth}, which the host sees too when the queue stays drained until it looks
 */
public record LaneStats(int lane, int kind, int producer, long total, long collected, long droppedPushGate,
        long droppedPopGate, long droppedDegraded, long droppedCollector, long droppedExited, long droppedStopped,
        long backstopExpiries, long stallCount, long stallTotalNs, long stallLongestNs, List<StallWindow> stallWindows,
        long stallWindowsOmitted, long minFreeDepth, boolean degraded, String failure, long collectNs,
        long collectLongestNs, List<DropWindow> dropWindows, long dropRuns,
        List<DepthSample> freeDepthSamples) {

    /** Copies the window lists, so the record stays immutable. */
    public LaneStats {
        stallWindows = List.copyOf(stallWindows);
        dropWindows = List.copyOf(dropWindows);
        freeDepthSamples = List.copyOf(freeDepthSamples);
    }

    /** @return records dropped whose time is not in {@link #dropWindows()} (0 for an in-process lane after stop) */
    public long droppedUnplaced() {
        return Math.max(0, dropped() - dropWindows.stream().mapToLong(DropWindow::count).sum());
    }

    /** @return records dropped by all causes */
    public long dropped() {
        return droppedPushGate + droppedPopGate + droppedDegraded + droppedCollector + droppedExited + droppedStopped;
    }

    /** @return records dropped with the given cause */
    public long dropped(DropCause cause) {
        return switch (cause) {
            case PUSH_GATE -> droppedPushGate;
            case POP_GATE -> droppedPopGate;
            case DEGRADED -> droppedDegraded;
            case COLLECTOR -> droppedCollector;
            case PRODUCER_EXITED -> droppedExited;
            case STOPPED -> droppedStopped;
        };
    }

    /** @return true when the host marked the lane failed ({@link #failure()} says why) */
    public boolean failed() {
        return failure != null;
    }

    /** @return {@code total - collected - dropped}: records neither delivered nor accounted; an error after stop */
    public long silentLoss() {
        return total - collected - dropped();
    }
}
