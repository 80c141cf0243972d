package dev.dfx.export;

import java.util.ArrayList;
import java.util.List;

/**
 * Assigns bars of one lane to sub-lanes so that no two bars on a sub-lane overlap. Trace viewers require the
 * complete ({@code X}) events of one thread to nest; a bar that partially overlaps another is moved to an overflow
 * track or dropped (Perfetto issue #4280), so bars that may overlap go to the lowest sub-lane whose previous bar
 * has ended (greedy interval partitioning: optimal when bars are offered in start order).
 *
 * <p>Bars must be offered in non-decreasing start order. Not thread-safe; one instance per lane.
 */
public final class SubLanes {
    private final List<Long> lastEnd = new ArrayList<>();

    /**
     * @param startNs bar start, ns; not smaller than the previous call's start
     * @param endNs   bar end, ns; {@code >= startNs}
     * @return the sub-lane index (0 = the lane itself) on which the bar does not overlap any earlier bar
     */
    public int place(long startNs, long endNs) {
        for (int i = 0; i < lastEnd.size(); i++) {
            if (lastEnd.get(i) <= startNs) {
                lastEnd.set(i, endNs);
                return i;
            }
        }
        lastEnd.add(endNs);
        return lastEnd.size() - 1;
    }

    /** @return how many sub-lanes have been used so far */
    public int count() {
        return lastEnd.size();
    }
}
