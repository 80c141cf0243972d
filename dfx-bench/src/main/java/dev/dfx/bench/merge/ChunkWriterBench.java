package dev.dfx.bench.merge;

import dev.dfx.chunk.ChunkWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Chunk writer throughput: one operation appends one drained buffer of {@code records} 32-byte records from a native
 * segment (as the pipeline hands it over), so MB/s = ops/s x records x 32 / 10^6. The file is closed (index and
 * trailer written) and started again every 256 MiB, and that cost is included.
 *
 * <p>{@code rawWrite} is the ceiling on the same machine: the same bytes through a 1 MiB direct buffer and
 * {@link FileChannel#write}, with no headers, checksums or index.
 *
 * <p>Run: {@code java -jar dfx-bench/target/benchmarks.jar ChunkWriterBench}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class ChunkWriterBench {
    private static final long ROTATE_BYTES = 256L << 20;

    /** Records per buffer: 8 (256 B), 1000 (a 32 KB task buffer), 32768 (1 MiB). */
    @Param({"8", "1000", "32768"})
    int records;

    private Path dir;
    private Path file;
    private Arena arena;
    private MemorySegment buffer;
    private ChunkWriter writer;
    private FileChannel raw;
    private ByteBuffer rawStaging;
    private long seq;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("dfx-writer-bench");
        file = dir.resolve("swimlane.dfx");
        arena = Arena.ofShared();
        buffer = arena.allocate(32L * records, 8);
        BenchChunks.fill(buffer, records, 1_000_000, 0, new SplittableRandom(7), 128);
        rawStaging = ByteBuffer.allocateDirect(1 << 20);
    }

    @Setup(Level.Iteration)
    public void open() throws IOException {
        writer = ChunkWriter.create(file, "swimlane", List.of(BenchChunks.TASK));
        raw = FileChannel.open(dir.resolve("raw.bin"), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        writer.close();
        raw.close();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        arena.close();
        BenchChunks.deleteTree(dir);
    }

    /** @return the chunk's file offset */
    @Benchmark
    public long appendChunk() throws IOException {
        if (writer.byteCount() > ROTATE_BYTES) {
            writer.close();
            writer = ChunkWriter.create(file, "swimlane", List.of(BenchChunks.TASK));
        }
        return writer.append(0, 0, seq++, buffer, records);
    }

    /** @return bytes now in the raw file */
    @Benchmark
    public long rawWrite() throws IOException {
        if (raw.position() > ROTATE_BYTES) {
            raw.truncate(0);
        }
        ByteBuffer src = buffer.asByteBuffer();
        while (src.hasRemaining()) {
            if (!rawStaging.hasRemaining()) {
                rawStaging.flip();
                while (rawStaging.hasRemaining()) {
                    raw.write(rawStaging);
                }
                rawStaging.clear();
            }
            int n = Math.min(src.remaining(), rawStaging.remaining());
            rawStaging.put(rawStaging.position(), src, src.position(), n);
            rawStaging.position(rawStaging.position() + n);
            src.position(src.position() + n);
        }
        return raw.position();
    }
}
