package dev.dfx.bench.merge;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkWriter;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Synthetic swimlane chunk files for the merge and writer benchmarks: 32-byte core task records. */
final class BenchChunks {
    static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** u64 task id at 0, u64 start ns at 8 (the merge key), u64 end ns at 16, u64 core at 24. */
    static final BufferKind TASK = BufferKind.timed(0, "core_task", 32, 8);

    private BenchChunks() {
    }

    /**
     * Fills {@code records} with {@code count} task records whose start times rise by 1..{@code maxStep} ns from
     * {@code ts}.
     *
     * @return the timestamp after the last record
     */
    static long fill(MemorySegment records, int count, long ts, int lane, SplittableRandom r, int maxStep) {
        for (int i = 0; i < count; i++) {
            long at = 32L * i;
            records.set(LE64, at, ((long) lane << 32) | i);
            records.set(LE64, at + 8, ts);
            records.set(LE64, at + 16, ts + 100);
            records.set(LE64, at + 24, lane);
            ts += 1 + r.nextInt(maxStep);
        }
        return ts;
    }

    /**
     * Writes {@code lanes x buffersPerLane} chunks of {@code recordsPerBuffer} records to {@code file}. Every lane
     * starts at the same time and advances by 1..128 ns per record, so the lanes interleave record by record (the
     * merge's worst case: the heap top changes at almost every record).
     *
     * @return records written
     */
    static long writeRun(Path file, int lanes, int buffersPerLane, int recordsPerBuffer) throws IOException {
        SplittableRandom r = new SplittableRandom(42);
        MemorySegment buffer = MemorySegment.ofArray(new byte[32 * recordsPerBuffer]);
        long[] ts = new long[lanes];
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TASK))) {
            for (int seq = 0; seq < buffersPerLane; seq++) {
                for (int lane = 0; lane < lanes; lane++) {
                    ts[lane] = fill(buffer, recordsPerBuffer, ts[lane], lane, r, 128);
                    w.append(TASK.id(), lane, seq, buffer, recordsPerBuffer);
                }
            }
            return w.recordCount();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
