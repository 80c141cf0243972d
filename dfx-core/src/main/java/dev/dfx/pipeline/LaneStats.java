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
 */
public record LaneStats(int lane, int kind, int producer, long total, long collected, long droppedPushGate,
        long droppedPopGate, long droppedDegraded, long droppedCollector, long droppedExited, long backstopExpiries, long stallCount,
        long stallTotalNs, long stallLongestNs, List<StallWindow> stallWindows, long stallWindowsOmitted,
        long minFreeDepth, boolean degraded, String failure) {

    /** Copies the window list, so the record stays immutable. */
    public LaneStats {
        stallWindows = List.copyOf(stallWindows);
    }

    /** @return records dropped by all causes */
    public long dropped() {
        return droppedPushGate + droppedPopGate + droppedDegraded + droppedCollector + droppedExited;
    }

    /** @return records dropped with the given cause */
    public long dropped(DropCause cause) {
        return switch (cause) {
            case PUSH_GATE -> droppedPushGate;
            case POP_GATE -> droppedPopGate;
            case DEGRADED -> droppedDegraded;
            case COLLECTOR -> droppedCollector;
            case PRODUCER_EXITED -> droppedExited;
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
