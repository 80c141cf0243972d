package dev.dfx.region;

import dev.dfx.pipeline.RegionLayout;
import dev.dfx.pipeline.StallWindow;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The host's copy of one lane's stall windows, read from the lane's stall ring in the region (docs/region-abi.md,
 * lane state {@code stallWindows} and the ring): a producer in another process cannot append to the host's own
 * stall log, so it writes window {@code n} to ring slot {@code n % }{@value RegionLayout#STALL_RING_WINDOWS} and
 * then releases {@code stallWindows = n + 1}; {@link #poll} copies the windows written since the last poll.
 *
 * <p>Nothing read is trusted: a window whose slot the producer may have overwritten while it was read (the count,
 * read again after the slots, moved a whole ring past it), one the producer wrote more than a ring ahead of the last
 * poll, and one that ends before it starts are counted as omitted, not kept; a count that goes backwards is ignored.
 * At most {@code cap} windows are kept, the rest counted as omitted, as the in-process stall log does.
 *
 * <p>Thread-safety: every method from any thread (the lane's collector and stats snapshots poll the same ring).
 */
final class StallRing {
    private final int lane;
    private final int cap;
    private final List<StallWindow> windows = new ArrayList<>();
    private long read;
    private long omitted;

    /**
     * @param lane the lane
     * @param cap  the most windows kept
     */
    StallRing(int lane, int cap) {
        this.lane = lane;
        this.cap = cap;
    }

    /** Copies the windows the producer wrote since the last poll out of {@code region}. */
    synchronized void poll(MemorySegment region, RegionLayout layout) {
        long base = layout.lane(lane);
        long written = Fields.longAcquire(region, base + RegionLayout.L_STALL_WINDOWS);
        if (written - read <= 0) {
            return; // nothing new, or a count that went backwards: not the producer's protocol
        }
        long from = read;
        if (written - from > RegionLayout.STALL_RING_WINDOWS) {
            omitted += written - from - RegionLayout.STALL_RING_WINDOWS; // overwritten before this poll
            from = written - RegionLayout.STALL_RING_WINDOWS;
        }
        int n = (int) (written - from);
        long[] pairs = new long[2 * n];
        for (int i = 0; i < n; i++) {
            long at = layout.stallWindow(lane, from + i);
            pairs[2 * i] = region.get(Fields.LONG, at);
            pairs[2 * i + 1] = region.get(Fields.LONG, at + 8);
        }
        VarHandle.acquireFence(); // the slots are read before the count below
        long firstIntact = Fields.longAcquire(region, base + RegionLayout.L_STALL_WINDOWS)
                - RegionLayout.STALL_RING_WINDOWS;
        for (int i = 0; i < n; i++) {
            long start = pairs[2 * i];
            long end = pairs[2 * i + 1];
            if (from + i - firstIntact < 0 || end - start < 0 || windows.size() >= cap) {
                omitted++;
            } else {
                windows.add(new StallWindow(start, end));
            }
        }
        read = written;
    }

    /** @return the windows kept, in the order the producer wrote them */
    synchronized List<StallWindow> windows() {
        return List.copyOf(windows);
    }

    /** @return windows written but not kept */
    synchronized long omitted() {
        return omitted;
    }
}
