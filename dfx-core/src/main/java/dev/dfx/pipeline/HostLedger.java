package dev.dfx.pipeline;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Host-side per-lane counts: records collected and records lost to a throwing collector. Each lane's collector calls
 * run under its collector lane's claim (one worker at a time, or the stopping thread of a pipeline without host
 * threads), so every slot has one writer at a time; readers on
 * any thread see whole values (release/acquire).
 */
final class HostLedger {
    private final AtomicLongArray collected;
    private final AtomicLongArray lostToCollector;

    HostLedger(int lanes) {
        collected = new AtomicLongArray(lanes);
        lostToCollector = new AtomicLongArray(lanes);
    }

    void collected(int lane, long records) {
        collected.setRelease(lane, collected.getPlain(lane) + records);
    }

    void lostToCollector(int lane, long records) {
        lostToCollector.setRelease(lane, lostToCollector.getPlain(lane) + records);
    }

    long collected(int lane) {
        return collected.getAcquire(lane);
    }

    long lostToCollector(int lane) {
        return lostToCollector.getAcquire(lane);
    }
}
