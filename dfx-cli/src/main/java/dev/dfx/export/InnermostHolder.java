package dev.dfx.export;

import java.util.Arrays;

/**
 * Finds, among a thread's slices sorted by start time, the innermost one that holds a time: the last slice in that
 * order whose start is at or before the time and whose end is at or after it (inclusive at both ends, so a
 * zero-length slice holds its own time). With slices that nest this is the deepest one open at the time; with
 * partially overlapping ones (complete slices can overlap) it is the latest-starting holder, as a scan in start order
 * that keeps the last holder would find.
 *
 * <p>A query costs O(log n): a binary search for the slices that start at or before the time, then a descent of a
 * max-of-ends tree over that prefix for its rightmost slice ending at or after it. A scan would cost the number of
 * slices that start before the time, which made a thread's flow points cost the square of its slices (every point
 * of a thread without slices of its own scanned all the zero-length ones drawn for the points before it).
 *
 * <p>Immutable after construction except for {@link #visits()}, a count of tree nodes looked at (for tests that
 * check the cost by counting work); not thread-safe.
 */
final class InnermostHolder {
    private final long[] starts;
    /** Max of ends per node of a complete binary tree: node 1 is the root, leaves at {@code size + i}. */
    private final long[] maxEnd;
    private final int size;
    private long visits;

    /**
     * @param starts the slices' start times, ns, in non-decreasing order (copied)
     * @param ends   the slices' end times, ns, index for index with {@code starts} (copied)
     * @throws IllegalArgumentException when the arrays differ in length or the starts are out of order
     */
    InnermostHolder(long[] starts, long[] ends) {
        if (starts.length != ends.length) {
            throw new IllegalArgumentException("starts and ends differ in length: " + starts.length + ", " + ends.length);
        }
        for (int i = 1; i < starts.length; i++) {
            if (starts[i] < starts[i - 1]) {
                throw new IllegalArgumentException("starts out of order at index " + i);
            }
        }
        this.starts = starts.clone();
        int s = 1;
        while (s < starts.length) {
            s <<= 1;
        }
        size = s;
        maxEnd = new long[2 * s];
        Arrays.fill(maxEnd, Long.MIN_VALUE);
        System.arraycopy(ends, 0, maxEnd, s, ends.length);
        for (int n = s - 1; n >= 1; n--) {
            maxEnd[n] = Math.max(maxEnd[2 * n], maxEnd[2 * n + 1]);
        }
    }

    /**
     * @param tsNs a time, ns
     * @return the index of the innermost slice holding {@code tsNs} (see the class comment), or -1 when none does
     */
    int at(long tsNs) {
        int last = upperBound(tsNs) - 1; // the last slice starting at or before the time
        return last < 0 ? -1 : rightmost(1, 0, size - 1, last, tsNs);
    }

    /** @return tree nodes looked at by {@link #at} so far */
    long visits() {
        return visits;
    }

    /** @return the first index whose start is after the time (the count of slices starting at or before it) */
    private int upperBound(long tsNs) {
        int lo = 0;
        int hi = starts.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= tsNs) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * @return the largest index at or below {@code last} in node's range [lo, hi] whose end is at or after the time,
     *         or -1. Only the nodes on the path to {@code last} are cut by it; a node wholly inside the prefix is
     *         entered only when its max end reaches the time, and then holds an answer, so a query visits O(log n)
     *         nodes.
     */
    private int rightmost(int node, int lo, int hi, int last, long tsNs) {
        visits++;
        if (lo > last || maxEnd[node] < tsNs) {
            return -1;
        }
        if (lo == hi) {
            return lo;
        }
        int mid = (lo + hi) >>> 1;
        int right = rightmost(2 * node + 1, mid + 1, hi, last, tsNs);
        return right >= 0 ? right : rightmost(2 * node, lo, mid, last, tsNs);
    }
}
