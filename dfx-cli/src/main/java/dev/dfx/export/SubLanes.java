package dev.dfx.export;

import java.util.Arrays;

/**
 * Assigns bars of one lane to sub-lanes so that no two bars on a sub-lane overlap. Trace viewers require the
 * complete ({@code X}) events of one thread to nest; a bar that partially overlaps another is moved to an overflow
 * track or dropped (Perfetto issue #4280), so bars that may overlap go to the lowest sub-lane whose previous bar
 * has ended (greedy interval partitioning: optimal when bars are offered in start order).
 *
 * <p>Bars must be offered in non-decreasing start order. Not thread-safe; one instance per lane. Memory: a long per
 * sub-lane.
 */
public final class SubLanes {
    /** The end of each sub-lane's last bar, ns. */
    private long[] lastEnd = new long[4];
    private int count;

    /**
     * @param startNs bar start, ns; not smaller than the previous call's start
     * @param endNs   bar end, ns; {@code >= startNs}
     * @return the sub-lane index (0 = the lane itself) on which the bar does not overlap any earlier bar
     */
    public int place(long startNs, long endNs) {
        for (int i = 0; i < count; i++) {
            if (lastEnd[i] <= startNs) {
                lastEnd[i] = endNs;
                return i;
            }
        }
        if (count == lastEnd.length) {
            lastEnd = Arrays.copyOf(lastEnd, 2 * count);
        }
        lastEnd[count] = endNs;
        return count++;
    }

    /** @return how many sub-lanes have been used so far */
    public int count() {
        return count;
    }
}
