package dev.dfx.bench.merge;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.trace.ChunkLaneQueue;
import dev.dfx.trace.ChunkStoreMerge;
import dev.dfx.trace.QueueHeapMerge;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Records per second of the time-ordered merge over a chunk file (mapped, already validated): one queue per lane,
 * every record handed out in time order and one field of it read. The score is records/s (one operation = one
 * record; the target in docs/benchmarks.md is at least 20 M records/s across 64 lanes).
 *
 * <p>Run: {@code java -jar dfx-bench/target/benchmarks.jar MergeBench}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class MergeBench {
    /** Records in the file: lanes x buffers x records per buffer, kept equal across lane counts. */
    static final int RECORDS = 1 << 20;
    static final int RECORDS_PER_BUFFER = 1024;

    @Param({"64", "8"})
    int lanes;

    private Path dir;
    private ChunkReader reader;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("dfx-merge-bench");
        Path file = dir.resolve("swimlane.dfx");
        long written = BenchChunks.writeRun(file, lanes, RECORDS / RECORDS_PER_BUFFER / lanes, RECORDS_PER_BUFFER);
        if (written != RECORDS) {
            throw new IllegalStateException("wrote " + written + " records, expected " + RECORDS);
        }
        reader = ChunkReader.open(file);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        reader.close();
        BenchChunks.deleteTree(dir);
    }

    /** @return the sum of task ids (so the reads are not dead code) */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long mergeAllLanes() {
        QueueHeapMerge<ChunkLaneQueue> merge = ChunkStoreMerge.of(List.of(reader));
        long sum = 0;
        for (int q; (q = merge.next()) != QueueHeapMerge.NONE; ) {
            ChunkLaneQueue lane = merge.queue(q);
            sum += lane.records().get(BenchChunks.LE64, lane.offset());
        }
        return sum;
    }
}
