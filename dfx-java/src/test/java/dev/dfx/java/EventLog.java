package dev.dfx.java;

import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.DrainedBuffer;
import dev.dfx.region.UserEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A collector that keeps every user event it is given, per lane in arrival order, and checks that each lane's
 * buffers arrive with seq 0, 1, 2, ...; optionally slow (parks per buffer) so that the producer's gates wait.
 * Thread-safe (a lane's buffers come from one collector call at a time).
 */
public final class EventLog implements Collector {
    private final long parkNanos;
    private final Map<Integer, List<UserEvent>> lanes = new ConcurrentHashMap<>();
    private final Map<Integer, Long> nextSeq = new ConcurrentHashMap<>();
    public final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());

    public EventLog(long parkMicros) {
        this.parkNanos = TimeUnit.MICROSECONDS.toNanos(parkMicros);
    }

    @Override
    public void accept(DrainedBuffer b) {
        if (parkNanos > 0) {
            LockSupport.parkNanos(parkNanos);
        }
        long want = nextSeq.getOrDefault(b.lane(), 0L);
        if (b.seq() != want) {
            problems.add("lane " + b.lane() + ": buffer seq " + b.seq() + ", expected " + want);
        }
        nextSeq.put(b.lane(), b.seq() + 1);
        List<UserEvent> l = lanes.computeIfAbsent(b.lane(), k -> java.util.Collections.synchronizedList(
                new ArrayList<>()));
        for (int i = 0; i < b.recordCount(); i++) {
            l.add(UserEvent.read(b.records(), (long) i * UserEvent.BYTES));
        }
    }

    public Map<Integer, List<UserEvent>> lanes() {
        return lanes;
    }
}
