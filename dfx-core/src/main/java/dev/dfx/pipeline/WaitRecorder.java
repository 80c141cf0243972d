package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * Records one lane's producer waits: stalls (waits longer than the threshold, with their windows) and backstop
 * expiries, into the lane's active head (opaque stores, so stats readers see whole values) and its
 * {@link WindowLog}. Shared by the lane's gates and its payload arena; producer thread only.
 */
final class WaitRecorder {
    private final long stallThresholdNs;
    private final MemorySegment region;
    private final long laneBase;
    private final WindowLog windows;
    private long expiries;
    private long stalls;
    private long stallTotalNs;
    private long stallLongestNs;

    WaitRecorder(long stallThresholdNs, MemorySegment region, long laneBase, WindowLog windows) {
        this.stallThresholdNs = stallThresholdNs;
        this.region = region;
        this.laneBase = laneBase;
        this.windows = windows;
    }

    /** Records a wait from {@code startNs} to {@code endNs} if it is longer than the stall threshold. */
    void waited(long startNs, long endNs) {
        long d = endNs - startNs;
        if (d <= stallThresholdNs) {
            return;
        }
        stalls++;
        stallTotalNs += d;
        stallLongestNs = Math.max(stallLongestNs, d);
        windows.add(startNs, endNs, 1);
        Mem.setLongOpaque(region, laneBase + RegionLayout.L_STALL_COUNT, stalls);
        Mem.setLongOpaque(region, laneBase + RegionLayout.L_STALL_TOTAL, stallTotalNs);
        Mem.setLongOpaque(region, laneBase + RegionLayout.L_STALL_LONGEST, stallLongestNs);
    }

    void expired() {
        expiries++;
        Mem.setLongOpaque(region, laneBase + RegionLayout.L_EXPIRIES, expiries);
    }
}
