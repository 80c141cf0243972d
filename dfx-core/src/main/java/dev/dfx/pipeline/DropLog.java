package dev.dfx.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * The drop windows one side of a lane records ({@link DropWindow}): the producer side (its {@link LaneWriter}) or
 * the host side (its {@link CollectorLane} and stop's recovery). A drop continues the newest window when the lane's
 * progress counter has not moved since the previous drop (nothing got through in between), and so does every drop
 * once {@code cap} windows are kept (the newest window then grows, so the counts still add up to what was dropped).
 *
 * <p>Thread-safety: written by one thread at a time (the lane's writer thread; or whoever holds the lane's collector
 * claim, or the stopping thread while no collector call of the lane runs, the hand-overs being release/acquire);
 * {@link #windows()} and {@link #runs()} from any thread ({@link WindowLog}'s ordering).
 */
final class DropLog {
    private final WindowLog log;
    private long progressAtLastDrop = -1;
    private volatile long runs;

    /** @param cap most windows kept, {@code >= 1} */
    DropLog(int cap) {
        this.log = new WindowLog(cap);
    }

    /**
     * Writer only: records {@code count} records lost from {@code startNs} to {@code endNs}.
     *
     * @param progress the lane's count of what got through (buffers published, records collected), monotonic: the
     *                 drop continues the newest window when it equals the value at the previous drop
     */
    void dropped(long count, long startNs, long endNs, long progress) {
        if (count <= 0) {
            return;
        }
        boolean continues = progress == progressAtLastDrop && log.size() > 0;
        progressAtLastDrop = progress;
        if (!continues) {
            runs = runs + 1;  // one writer: a plain increment of the volatile is exact
            if (log.add(startNs, endNs, count)) {
                return;
            }
        }
        log.extendLast(endNs, count);
    }

    /** Any thread. @return the kept windows, oldest first */
    List<DropWindow> windows() {
        List<DropWindow> out = new ArrayList<>();
        log.forEach((s, e, c) -> out.add(new DropWindow(s, e, c)));
        return out;
    }

    /** Any thread. @return runs of consecutive drops recorded (more than the windows once the cap was reached) */
    long runs() {
        return runs;
    }
}
