package dev.dfx.region;

import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.DrainedBuffer;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Checks what {@code region_producer} writes: per lane, instants named "seq" with value {@code (thread << 32) | i}
 * from one thread; {@code i} must rise by exactly 1 (lossless) or at least 1 (with drops), and the buffers of a lane
 * must arrive in seq order. Optionally slow (parks per buffer). Thread-safe.
 */
final class SequenceCollector implements Collector {
    private final boolean lossless;
    private final long parkNanos;
    private final Map<Integer, long[]> lanes = new ConcurrentHashMap<>();  // lane -> {thread, next i, count, next seq}
    private final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile RegionHost host;

    SequenceCollector(boolean lossless, long parkMicros) {
        this.lossless = lossless;
        this.parkNanos = TimeUnit.MICROSECONDS.toNanos(parkMicros);
    }

    void host(RegionHost h) {
        this.host = h;
    }

    @Override
    public void accept(DrainedBuffer b) {
        if (parkNanos > 0) {
            LockSupport.parkNanos(parkNanos);
        }
        long[] st = lanes.computeIfAbsent(b.lane(), k -> new long[] {-1, 0, 0, 0});
        if (b.seq() != st[3]) {
            problems.add("lane " + b.lane() + ": buffer seq " + b.seq() + ", expected " + st[3]);
        }
        st[3] = b.seq() + 1;
        MemorySegment r = b.records();
        for (int i = 0; i < b.recordCount(); i++) {
            UserEvent e = UserEvent.read(r, (long) i * UserEvent.BYTES);
            RegionHost h = host;
            String name = h == null ? null : h.strings(b.lane()).resolve(e.name());
            if (e.type() != UserEventType.INSTANT || (h != null && !"seq".equals(name))) {
                continue;  // not a sequence record (the producer's other event types)
            }
            long thread = e.value() >>> 32;
            long n = e.value() & 0xFFFFFFFFL;
            if (st[0] < 0) {
                st[0] = thread;
            } else if (st[0] != thread) {
                problems.add("lane " + b.lane() + ": thread " + thread + " after thread " + st[0]);
            }
            if (lossless ? n != st[1] : n < st[1]) {
                problems.add("lane " + b.lane() + ": record " + n + " after " + (st[1] - 1));
            }
            st[1] = n + 1;
            st[2]++;
        }
    }

    /** @return sequence records seen on a lane */
    long count(int lane) {
        long[] st = lanes.get(lane);
        return st == null ? 0 : st[2];
    }

    /** @return the highest record number + 1 seen on a lane */
    long next(int lane) {
        long[] st = lanes.get(lane);
        return st == null ? 0 : st[1];
    }

    /** @return the thread index that wrote a lane, or -1 */
    long thread(int lane) {
        long[] st = lanes.get(lane);
        return st == null ? -1 : st[0];
    }

    List<String> problems() {
        return List.copyOf(problems);
    }
}
