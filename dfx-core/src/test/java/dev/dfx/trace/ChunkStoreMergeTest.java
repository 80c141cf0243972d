package dev.dfx.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.chunk.ChunkWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * All lanes of a run directory's chunk files merged in time order, against a stable sort of every record; and the
 * merge loop allocates nothing per record.
 */
class ChunkStoreMergeTest {
    private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Kinds of the test run; every record holds a unique u64 id at {@link #idOffset}. */
    private static final BufferKind TASK = BufferKind.timed(0, "core_task", 32, 8);
    private static final BufferKind PHASE = new BufferKind(1, "sched_phase", 24, 16, 4);
    private static final BufferKind ARGS = BufferKind.untimed(2, "args", 16);
    private static final BufferKind PMU = BufferKind.timed(0, "pmu", 16, 0);

    @TempDir
    Path run;

    private static long idOffset(BufferKind k) {
        return k.equals(PMU) ? 8 : 0;
    }

    /** One record as the oracle sees it: its timestamp, the rank of its lane's queue, and its id. */
    private record Rec(long ts, int queue, long id) {
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void mergeOfAllLanesEqualsStableSortOfAllRecords(long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        List<Rec> expected = new ArrayList<>();
        // Queue rank: file order (pmu.dfx before swimlane.dfx), then kind id, then lane.
        writeFile(r, "pmu", List.of(PMU), new int[]{3}, 40, 0, expected);
        writeFile(r, "swimlane", List.of(TASK, PHASE, ARGS), new int[]{1 + r.nextInt(20), 1 + r.nextInt(5), 2}, 40,
                3, expected);
        expected.sort(Comparator.comparing(Rec::ts, Long::compareUnsigned)); // stable: queue rank, then seq order

        List<ChunkReader> readers = ChunkStore.openAll(run);
        try {
            QueueHeapMerge<ChunkLaneQueue> merge = ChunkStoreMerge.of(readers);
            List<Long> ids = new ArrayList<>();
            for (int q; (q = merge.next()) != QueueHeapMerge.NONE; ) {
                ChunkLaneQueue lane = merge.queue(q);
                ids.add(lane.records().get(LE64, lane.offset() + idOffset(lane.kind())));
            }
            assertThat(ids).containsExactlyElementsOf(expected.stream().map(Rec::id).toList());
            assertThat(merge.outOfOrderEntries()).isZero();
        } finally {
            readers.forEach(ChunkReader::close);
        }
    }

    @Test
    void theMergeLoopAllocatesNothingPerRecord() throws Exception {
        SplittableRandom r = new SplittableRandom(99);
        writeFile(r, "swimlane", List.of(TASK), new int[]{64}, 400, 0, new ArrayList<>());
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (ChunkReader reader = ChunkReader.open(ChunkStore.file(run, "swimlane"))) {
            long records = reader.recordCount();
            long warm = 0;
            for (int i = 0; i < 20; i++) {
                warm += sumIds(ChunkStoreMerge.of(List.of(reader)));
            }
            QueueHeapMerge<ChunkLaneQueue> merge = ChunkStoreMerge.of(List.of(reader));
            long before = threads.getCurrentThreadAllocatedBytes();
            long sum = sumIds(merge);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            assertThat(sum * 20).isEqualTo(warm);
            assertThat(records).isGreaterThan(50_000);
            assertThat(allocated).as("bytes allocated while merging %d records", records).isLessThan(records / 8);
        }
    }

    private static long sumIds(QueueHeapMerge<ChunkLaneQueue> merge) {
        long sum = 0;
        for (int q; (q = merge.next()) != QueueHeapMerge.NONE; ) {
            ChunkLaneQueue lane = merge.queue(q);
            sum += lane.records().get(LE64, lane.offset());
        }
        return sum;
    }

    /**
     * Writes one chunk file whose lanes have random non-decreasing timestamps (many ties across lanes), split into
     * buffers written in shuffled order, and lists every timed record in {@code expected}.
     *
     * @param lanesPerKind lanes of each kind
     * @param maxRecords   records per buffer are drawn from 0..maxRecords-1
     * @param firstQueue   queue rank of this file's first timed lane
     */
    private void writeFile(SplittableRandom r, String subsystem, List<BufferKind> kinds, int[] lanesPerKind,
                           int maxRecords, int firstQueue, List<Rec> expected) throws Exception {
        record Buffer(BufferKind kind, int lane, long seq, MemorySegment records, int count) {
        }
        List<Buffer> buffers = new ArrayList<>();
        int queue = firstQueue;
        for (int k = 0; k < kinds.size(); k++) {
            BufferKind kind = kinds.get(k);
            for (int lane = 0; lane < lanesPerKind[k]; lane++, queue += kind.hasTimestamp() ? 1 : 0) {
                long ts = r.nextInt(0, 50);
                int buffersInLane = r.nextInt(1, 12);
                for (long seq = 0; seq < buffersInLane; seq++) {
                    int count = r.nextInt(0, maxRecords);
                    MemorySegment s = MemorySegment.ofArray(new byte[count * kind.recordSize()]);
                    for (int i = 0; i < count; i++) {
                        long at = (long) i * kind.recordSize();
                        long id = ((long) subsystem.hashCode() << 40) ^ ((long) kind.id() << 32) ^ (lane << 20)
                                ^ (seq << 10) ^ i;
                        s.set(LE64, at + idOffset(kind), id);
                        if (kind.timestampWidth() == 8) {
                            s.set(LE64, at + kind.timestampOffset(), ts);
                        } else if (kind.timestampWidth() == 4) {
                            s.set(LE32, at + kind.timestampOffset(), (int) ts);
                        }
                        if (kind.hasTimestamp()) {
                            expected.add(new Rec(ts, queue, id));
                        }
                        ts += r.nextInt(3) == 0 ? 0 : r.nextInt(0, 25);
                    }
                    buffers.add(new Buffer(kind, lane, seq, s, count));
                }
            }
        }
        Collections.shuffle(buffers, new java.util.Random(r.nextLong()));
        try (ChunkWriter w = ChunkStore.create(run, subsystem, kinds)) {
            for (Buffer b : buffers) {
                w.append(b.kind().id(), b.lane(), b.seq(), b.records(), b.count());
            }
        }
    }
}
