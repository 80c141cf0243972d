package dev.dfx.pipeline;

import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Host-side per-lane counts: records collected, records lost to a throwing collector, and records a producer in another
 * process counted but never committed before it ended; and when the losses happened ({@link DropLog}, a run of
 * losses ending when a buffer is collected). Each lane's collector calls run under its collector lane's
 * claim (one worker at a time, or the stopping thread once it claimed the lane for good), and the un-flushed
 * recovery runs on the stopping thread while no collector call of the lane runs, so every slot has one writer at a
 * time; readers on
 * any thread see whole values (release/acquire).
 */
final class HostLedger {
    private final AtomicLongArray collected;
    private final AtomicLongArray lostToCollector;
    private final AtomicLongArray lostToExit;
    private final DropLog[] drops;

    /** @param maxDropWindows most drop windows kept per lane, {@code >= 1} */
    HostLedger(int lanes, int maxDropWindows) {
        collected = new AtomicLongArray(lanes);
        lostToCollector = new AtomicLongArray(lanes);
        lostToExit = new AtomicLongArray(lanes);
        drops = new DropLog[lanes];
        for (int l = 0; l < lanes; l++) {
            drops[l] = new DropLog(maxDropWindows);
        }
    }

    /** At stop, at {@code nowNs}: records a producer that ended counted but never committed. */
    void lostToExit(int lane, long records, long nowNs) {
        lostToExit.setRelease(lane, lostToExit.getPlain(lane) + records);
        drops[lane].dropped(records, nowNs, nowNs, collected.getPlain(lane));
    }

    long lostToExit(int lane) {
        return lostToExit.getAcquire(lane);
    }

    void collected(int lane, long records) {
        collected.setRelease(lane, collected.getPlain(lane) + records);
    }

    /** Records lost in a collector call that ran from {@code startNs} to {@code endNs}. */
    void lostToCollector(int lane, long records, long startNs, long endNs) {
        lostToCollector.setRelease(lane, lostToCollector.getPlain(lane) + records);
        drops[lane].dropped(records, startNs, endNs, collected.getPlain(lane));
    }

    /** @return the lane's host-side drop windows, oldest first */
    List<DropWindow> dropWindows(int lane) {
        return drops[lane].windows();
    }

    /** @return the lane's host-side runs of drops */
    long dropRuns(int lane) {
        return drops[lane].runs();
    }

    long collected(int lane) {
        return collected.getAcquire(lane);
    }

    long lostToCollector(int lane) {
        return lostToCollector.getAcquire(lane);
    }
}
