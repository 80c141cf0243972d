package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A collector that checks what arrives against what {@link TestProducers} wrote: each record carries its lane and
 * its per-lane attempt number ({@code total - 1} when it was claimed). Per lane it checks that buffer seqs run
 * 0, 1, 2, ..., that record numbers strictly increase (in lane order, no duplicates), counts the records that
 * arrived and the numbers missing in between (gaps). Each lane's buffers arrive on one shard thread, and results
 * are read after {@link Pipeline#stop()} (which joins those threads), so plain per-lane arrays suffice.
 */
final class SequenceChecker implements Collector {
    static final int RECORD = 32;

    private final long[] nextBufferSeq;
    private final long[] lastRecord;
    private final long[] delivered;
    private final long[] gaps;
    private final long sleepNanosPerBuffer;
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());

    SequenceChecker(int lanes, long sleepNanosPerBuffer) {
        nextBufferSeq = new long[lanes];
        lastRecord = new long[lanes];
        Arrays.fill(lastRecord, -1);
        delivered = new long[lanes];
        gaps = new long[lanes];
        this.sleepNanosPerBuffer = sleepNanosPerBuffer;
    }

    /** Writes the test record for attempt {@code n} of {@code lane} at {@code off}. */
    static void writeRecord(MemorySegment s, long off, int lane, long n) {
        s.set(Mem.LONG, off, n);
        s.set(Mem.LONG, off + 8, lane);
        s.set(Mem.LONG, off + 16, n * 31 + lane);
        s.set(Mem.LONG, off + 24, ~n);
    }

    @Override
    public void accept(DrainedBuffer b) {
        int lane = b.lane();
        if (b.seq() != nextBufferSeq[lane]) {
            problems.add("lane " + lane + ": buffer seq " + b.seq() + ", expected " + nextBufferSeq[lane]);
        }
        nextBufferSeq[lane] = b.seq() + 1;
        if (b.recordSize() != RECORD) {
            problems.add("record size " + b.recordSize());
        }
        MemorySegment r = b.records();
        if (r.byteSize() != (long) b.recordCount() * RECORD) {
            problems.add("lane " + lane + ": records() has " + r.byteSize() + " bytes for " + b.recordCount());
        }
        for (int i = 0; i < b.recordCount(); i++) {
            long off = (long) i * RECORD;
            long n = r.get(Mem.LONG, off);
            long l = r.get(Mem.LONG, off + 8);
            if (l != lane || r.get(Mem.LONG, off + 16) != n * 31 + lane || r.get(Mem.LONG, off + 24) != ~n) {
                problems.add("lane " + lane + " seq " + b.seq() + " record " + i + ": torn or foreign record n=" + n
                        + " lane=" + l);
                continue;
            }
            if (n <= lastRecord[lane]) {
                problems.add("lane " + lane + ": record " + n + " after " + lastRecord[lane] + " (order/duplicate)");
            } else {
                gaps[lane] += n - lastRecord[lane] - 1;
            }
            lastRecord[lane] = n;
            delivered[lane]++;
        }
        if (sleepNanosPerBuffer > 0) {
            LockSupport.parkNanos(sleepNanosPerBuffer);
        }
    }

    long delivered(int lane) {
        return delivered[lane];
    }

    /** @return records missing between the first and last delivered record numbers of the lane */
    long gaps(int lane) {
        return gaps[lane];
    }

    /** @return the last record number delivered, or -1 */
    long last(int lane) {
        return lastRecord[lane];
    }

    List<String> problems() {
        return List.copyOf(problems);
    }
}
