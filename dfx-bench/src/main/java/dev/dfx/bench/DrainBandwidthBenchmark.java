package dev.dfx.bench;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
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

/**
 * Drained bytes against single-core copy bandwidth, in one run. Both methods move 64 KiB per operation, so
 * bytes/s = ops/s x 65536:
 * <ul>
 *   <li>{@code memcpy}: one thread copies 64 KiB blocks from a 64 MiB source ring into a 64 MiB destination
 *       ring with {@code MemorySegment.copy};</li>
 *   <li>{@code drained}: one producer fills a lane with {@code recordSize}-byte records (copied in from a
 *       source ring) until 64 KiB have been written, through the pipeline (64 KiB buffers, 8 or 32 per lane,
 *       BLOCK),
 *       into an in-memory collector that copies every buffer into a 64 MiB sink.</li>
 * </ul>
 * Ratio = drained / memcpy. Numbers only, never asserted.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class DrainBandwidthBenchmark {
    static final int BLOCK = 64 << 10;
    static final long RING = 64L << 20;

    /** Source and destination rings for the plain copy. */
    @State(Scope.Benchmark)
    public static class Copy {
        Arena arena;
        MemorySegment src;
        MemorySegment dst;
        long pos;

        @Setup(Level.Trial)
        public void setUp() {
            arena = Arena.ofShared();
            src = BenchPipelines.ring(arena, RING, (byte) 1);
            dst = BenchPipelines.ring(arena, RING, (byte) 2);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** A one-lane pipeline with 64 KiB buffers and a source ring of records. */
    @State(Scope.Benchmark)
    public static class Drain {
        @Param({"32", "4096"})
        int recordSize;
        @Param({"8", "32"})
        int buffersPerLane;
        Arena arena;
        MemorySegment src;
        BenchPipelines.InMemoryCollector sink;
        Pipeline pipeline;
        LaneWriter writer;
        long pos;

        @Setup(Level.Trial)
        public void setUp() {
            arena = Arena.ofShared();
            src = BenchPipelines.ring(arena, RING, (byte) 3);
            sink = new BenchPipelines.InMemoryCollector(1);
            pipeline = BenchPipelines.start("drain-bandwidth", 1, 1, recordSize, BLOCK / recordSize, buffersPerLane,
                    sink);
            writer = pipeline.writer(0);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            writer.flush();
            BenchPipelines.report("drain-bandwidth " + recordSize + " B x " + buffersPerLane, pipeline.stop());
            pipeline.close();
            sink.close();
            arena.close();
        }
    }

    @Benchmark
    public void memcpy(Copy c) {
        MemorySegment.copy(c.src, c.pos, c.dst, c.pos, BLOCK);
        c.pos = (c.pos + BLOCK) % RING;
    }

    @Benchmark
    public void drained(Drain d) {
        int size = d.recordSize;
        LaneWriter w = d.writer;
        long pos = d.pos;
        for (int done = 0; done < BLOCK; done += size) {
            long off = w.claim();
            if (off >= 0) {
                MemorySegment.copy(d.src, pos, w.segment(), off, size);
            }
            pos += size;
        }
        d.pos = pos % RING;
    }
}
