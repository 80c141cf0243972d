package dev.dfx.bench;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Lossless throughput: 4 lanes of 32-byte records (2 producer threads x 2 lanes, 1000 records x 8 buffers per
 * lane, the swimlane core-task pool) under BLOCK, drained into an in-memory collector that copies every buffer
 * out. Score = records/s over both producers; the final counts (loss must be zero) are printed at teardown.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class LosslessThroughputBenchmark {
    static final int BATCH = 1000;
    static final int PRODUCERS = 2;
    static final int LANES_PER_PRODUCER = 2;

    /** The pipeline, shared by the producer threads. */
    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"8"})
        int buffersPerLane;
        BenchPipelines.InMemoryCollector sink;
        Pipeline pipeline;
        final AtomicInteger nextProducer = new AtomicInteger();
        /** Producers that flushed their lanes: stop() may run only after all did (JMH orders the teardowns loosely). */
        final AtomicInteger flushed = new AtomicInteger();

        @Setup(Level.Trial)
        public void setUp() {
            sink = new BenchPipelines.InMemoryCollector(PRODUCERS * LANES_PER_PRODUCER);
            pipeline = BenchPipelines.start("throughput", PRODUCERS, LANES_PER_PRODUCER, 32, 1000, buffersPerLane,
                    sink);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (flushed.get() < PRODUCERS && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            BenchPipelines.report("lossless-throughput", pipeline.stop());
            pipeline.close();
            sink.close();
        }
    }

    /** One producer thread and its two lanes. */
    @State(Scope.Thread)
    public static class Producer {
        LaneWriter[] lanes;
        long n;

        @Setup(Level.Trial)
        public void setUp(Shared s) {
            int q = s.nextProducer.getAndIncrement();
            lanes = new LaneWriter[LANES_PER_PRODUCER];
            for (int i = 0; i < LANES_PER_PRODUCER; i++) {
                lanes[i] = s.pipeline.writer(q * LANES_PER_PRODUCER + i);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown(Shared s) {
            for (LaneWriter w : lanes) {
                w.flush();
            }
            s.flushed.incrementAndGet();
        }
    }

    @Benchmark
    @Threads(PRODUCERS)
    @OperationsPerInvocation(BATCH * LANES_PER_PRODUCER)
    public void write(Producer p) {
        for (LaneWriter w : p.lanes) {
            p.n = BenchPipelines.write32(w, p.n, BATCH);
        }
    }
}
