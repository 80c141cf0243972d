package dev.dfx.pipeline;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Host-side per-lane counts: records collected, records lost to a throwing collector, and records a producer in another
 * process counted but never committed before it ended. Each lane is served by
 * one collector shard (and, after stop, the stopping thread), so every slot has one writer at a time; readers on
 * any thread see whole values (release/acquire).
 */
final class HostLedger {
    private final AtomicLongArray collected;
    private final AtomicLongArray lostToCollector;
    private final AtomicLongArray lostToExit;

    HostLedger(int lanes) {
        collected = new AtomicLongArray(lanes);
        lostToCollector = new AtomicLongArray(lanes);
        lostToExit = new AtomicLongArray(lanes);
    }

    /** At stop: records a producer that ended counted but never committed. */
    void lostToExit(int lane, long records) {
        lostToExit.setRelease(lane, lostToExit.getPlain(lane) + records);
    }

    long lostToExit(int lane) {
        return lostToExit.getAcquire(lane);
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
