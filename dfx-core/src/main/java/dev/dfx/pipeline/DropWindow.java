package dev.dfx.pipeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One run of consecutive drops of a lane: from the first of its drops to the last, in {@link System#nanoTime()}
 * time, and the records lost. Drops are consecutive when nothing of the lane got through between them: no buffer was
 * published (producer side: push gate, pop gate, degraded) or collected (host side: a throwing collector) in between.
 * A lane's drop windows, in {@link LaneStats#dropWindows()}, are ordered and disjoint. Immutable.
 *
 * <p>When is a drop: a record refused at the pop gate, or while the lane is degraded, is lost when it is attempted;
 * a buffer refused at the push gate, or lost to its collector, when that is decided (its records were written
 * before); records a producer in another process counted but never committed ({@link DropCause#PRODUCER_EXITED}),
 * when stop recovered its lane (they were lost earlier, when it ended); records the pipeline stopped without
 * ({@link DropCause#STOPPED}), between the moment stop closed or revoked the lane and the end of stop.
 *
 * @param startNs when the first drop of the run happened (ns, {@code System.nanoTime()} clock)
 * @param endNs   when its last drop happened, {@code >= startNs} (same clock)
 * @param count   records lost in the run, {@code > 0}
 */
public record DropWindow(long startNs, long endNs, long count) {
    /** Checks the window. */
    public DropWindow {
        if (endNs < startNs || count <= 0) {
            throw new IllegalArgumentException("drop window [" + startNs + ", " + endNs + "] of " + count
                    + " records: the end must not precede the start, and the count must be positive");
        }
    }

    /**
     * Orders windows by start and joins those that overlap or touch into one (their counts added), so the result is
     * ordered and disjoint; then, if more than {@code cap} remain, joins the newest ones into the last kept window.
     * The sum of the counts is kept exactly.
     *
     * @param windows windows of one lane, or of the lanes of one thread, in any order
     * @param cap     most windows returned, {@code >= 1}
     * @return the joined windows, oldest first
     */
    public static List<DropWindow> union(List<DropWindow> windows, int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("cap must be >= 1, got " + cap);
        }
        List<DropWindow> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparingLong(DropWindow::startNs).thenComparingLong(DropWindow::endNs));
        List<DropWindow> out = new ArrayList<>();
        for (DropWindow w : sorted) {
            int last = out.size() - 1;
            if (last >= 0 && (w.startNs <= out.get(last).endNs || out.size() == cap)) {
                DropWindow p = out.get(last);
                out.set(last, new DropWindow(p.startNs, Math.max(p.endNs, w.endNs), p.count + w.count));
            } else {
                out.add(w);
            }
        }
        return out;
    }
}
