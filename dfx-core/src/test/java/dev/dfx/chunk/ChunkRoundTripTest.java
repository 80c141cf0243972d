package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.TASK;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** What the writer stores is what the reader gives back: records, headers, lanes, seq order and gaps. */
class ChunkRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void concurrentWritersLoseNothingAndEachLaneReadsBackInSeqOrder() throws Exception {
        Path file = dir.resolve("swimlane.dfx");
        int threads = 4;
        int lanesPerThread = 3;
        int buffersPerLane = 60;
        // 4 KiB staging: chunks of up to 300 x 32 bytes go through both the staged and the direct path.
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TASK), 4096);
             ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    SplittableRandom r = new SplittableRandom(thread);
                    for (int seq = 0; seq < buffersPerLane; seq++) {
                        for (int l = 0; l < lanesPerThread; l++) {
                            int lane = thread * lanesPerThread + l;
                            int count = count(lane, seq);
                            w.append(0, lane, seq, TestChunks.taskRecords(lane, seq, count, firstTs(lane, seq)),
                                    count);
                            if (r.nextInt(20) == 0) {
                                w.flush();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }

        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.complete()).isTrue();
            assertThat(r.subsystem()).isEqualTo("swimlane");
            assertThat(r.kinds()).containsExactly(TASK);
            assertThat(r.chunks()).hasSize(threads * lanesPerThread * buffersPerLane);
            assertThat(r.lanes()).hasSize(threads * lanesPerThread);
            for (LaneSequence lane : r.lanes()) {
                assertThat(lane.gaps()).isEmpty();
                assertThat(lane.duplicates()).isZero();
                assertThat(lane.chunks()).extracting(ChunkInfo::seq)
                        .containsExactlyElementsOf(range(buffersPerLane));
                for (ChunkInfo c : lane.chunks()) {
                    int count = count(lane.lane(), (int) c.seq());
                    MemorySegment expected = TestChunks.taskRecords(lane.lane(), c.seq(), count,
                            firstTs(lane.lane(), (int) c.seq()));
                    assertThat(c.recordCount()).isEqualTo(count);
                    assertThat(r.records(c).toArray(ValueLayout.JAVA_BYTE))
                            .isEqualTo(expected.toArray(ValueLayout.JAVA_BYTE));
                    assertThat(c.firstTimestamp()).isEqualTo(count == 0 ? 0 : firstTs(lane.lane(), (int) c.seq()));
                    assertThat(c.lastTimestamp()).isEqualTo(count == 0 ? 0
                            : firstTs(lane.lane(), (int) c.seq()) + 3L * (count - 1));
                }
            }
        }
    }

    @Test
    void seqGapsBeforeAndBetweenChunksAndRepeatsAreReported() throws Exception {
        Path file = dir.resolve("pmu.dfx");
        try (ChunkWriter w = ChunkWriter.create(file, "pmu", List.of(TASK))) {
            for (long seq : new long[]{4, 0, 1, 3, 7, 3}) { // written out of seq order, 3 twice
                w.append(0, 9, seq, TestChunks.taskRecords(9, seq, 1, seq * 10), 1);
            }
            for (long seq : new long[]{2, 3}) {
                w.append(0, 1, seq, TestChunks.taskRecords(1, seq, 1, seq * 10), 1);
            }
        }
        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.lanes()).extracting(LaneSequence::lane).containsExactly(1, 9);
            LaneSequence nine = r.lane(0, 9).orElseThrow();
            assertThat(nine.chunks()).extracting(ChunkInfo::seq).containsExactly(0L, 1L, 3L, 3L, 4L, 7L);
            assertThat(nine.gaps()).containsExactly(new SeqGap(2, 3), new SeqGap(5, 7));
            assertThat(nine.missingBuffers()).isEqualTo(3);
            assertThat(nine.duplicates()).isOne();
            // The two chunks with seq 3 keep file order: the first written comes first.
            assertThat(nine.chunks().get(2).offset()).isLessThan(nine.chunks().get(3).offset());
            assertThat(r.lane(0, 1).orElseThrow().gaps()).containsExactly(new SeqGap(0, 2));
        }
    }

    /** The unbroken chunks of a lane end before its first missing or repeated seq; a lane without seq 0 has none. */
    @Test
    void unbrokenChunksEndAtTheFirstMissingOrRepeatedSeq() throws Exception {
        Path file = dir.resolve("lanes.dfx");
        try (ChunkWriter w = ChunkWriter.create(file, "pmu", List.of(TASK))) {
            for (long seq : new long[]{2, 0, 1, 4}) { // lane 9: 3 missing
                w.append(0, 9, seq, TestChunks.taskRecords(9, seq, 1, seq * 10), 1);
            }
            for (long seq : new long[]{0, 1, 1, 2}) { // lane 5: 1 twice
                w.append(0, 5, seq, TestChunks.taskRecords(5, seq, 1, seq * 10), 1);
            }
            for (long seq : new long[]{1, 2}) { // lane 1: 0 missing
                w.append(0, 1, seq, TestChunks.taskRecords(1, seq, 1, seq * 10), 1);
            }
            for (long seq : new long[]{1, 0}) { // lane 3: whole, written out of order
                w.append(0, 3, seq, TestChunks.taskRecords(3, seq, 1, seq * 10), 1);
            }
        }
        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.lane(0, 9).orElseThrow().unbroken()).extracting(ChunkInfo::seq).containsExactly(0L, 1L, 2L);
            assertThat(r.lane(0, 5).orElseThrow().unbroken()).extracting(ChunkInfo::seq).containsExactly(0L, 1L);
            assertThat(r.lane(0, 1).orElseThrow().unbroken()).isEmpty();
            LaneSequence three = r.lane(0, 3).orElseThrow();
            assertThat(three.unbroken()).isEqualTo(three.chunks()).extracting(ChunkInfo::seq).containsExactly(0L, 1L);
        }
    }

    @Test
    void narrowTimestampsEmptyChunksAndLongBackedSegmentsRoundTrip() throws Exception {
        BufferKind narrow = new BufferKind(2, "phase", 24, 20, 4);
        Path file = dir.resolve("scopes.dfx");
        long[] words = new long[3 * 200]; // 200 records of 24 bytes in a long[]-backed heap segment
        for (int i = 0; i < 200; i++) {
            words[3 * i] = i;
            words[3 * i + 2] = (0xFFFF_FFF0L + i) << 32; // u32 timestamp at byte 20 (high half of word 2)
        }
        MemorySegment records = MemorySegment.ofArray(words);
        try (ChunkWriter w = ChunkWriter.create(file, "scopes", List.of(narrow), 4096)) {
            w.append(2, 0, 0, records, 3);   // staged
            w.append(2, 0, 1, records, 0);   // empty
            w.append(2, 0, 2, records, 200); // 4800 bytes: larger than the staging buffer
            assertThat(w.chunkCount()).isEqualTo(3);
            assertThat(w.recordCount()).isEqualTo(203);
        }
        try (ChunkReader r = ChunkReader.open(file)) {
            List<ChunkInfo> cs = r.chunks();
            assertThat(cs).extracting(ChunkInfo::recordCount).containsExactly(3, 0, 200);
            assertThat(cs.get(0).firstTimestamp()).isEqualTo(0xFFFF_FFF0L);
            assertThat(cs.get(0).lastTimestamp()).isEqualTo(0xFFFF_FFF2L);
            assertThat(cs.get(1).firstTimestamp()).isZero();
            assertThat(cs.get(2).lastTimestamp()).isEqualTo(183); // u32 field: 0xFFFFFFF0 + 199 wraps to 183
            assertThat(r.records(cs.get(2)).toArray(ValueLayout.JAVA_LONG)).isEqualTo(words);
            assertThat(r.recordCount()).isEqualTo(203);
        }
    }

    @Test
    void nativeSegmentsAndAClosedFileWithoutChunks() throws Exception {
        Path empty = dir.resolve("deps.dfx");
        ChunkWriter.create(empty, "deps", List.of(BufferKind.untimed(0, "submit", 4672))).close();
        try (ChunkReader r = ChunkReader.open(empty)) {
            assertThat(r.complete()).isTrue();
            assertThat(r.chunks()).isEmpty();
            assertThat(r.lanes()).isEmpty();
            assertThat(r.kind(0).recordSize()).isEqualTo(4672);
        }

        Path file = dir.resolve("native.dfx");
        try (Arena arena = Arena.ofConfined();
             ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TASK), 4096)) {
            MemorySegment big = arena.allocate(32L * 1000);
            big.copyFrom(TestChunks.taskRecords(3, 0, 1000, 5));
            w.append(0, 3, 0, big, 1000);
        }
        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.records(r.chunks().getFirst()).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(TestChunks.taskRecords(3, 0, 1000, 5).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    private static int count(int lane, int seq) {
        return (lane * 31 + seq * 17) % 301; // 0..300 records, some buffers empty
    }

    private static long firstTs(int lane, int seq) {
        return 1_000_000L * seq + lane;
    }

    private static List<Long> range(int n) {
        List<Long> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }
}
