package dev.dfx.bench;

import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.DrainedBuffer;
import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.pipeline.PoolSpec;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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

/**
 * Stall confinement (docs/benchmarks.md): records/s of a lane on drain shard 1 while a background producer keeps
 * writing a lane on drain shard 0, with shard 0 healthy or wedged (its collector blocks, so drain shard 0
 * backs up and its producer waits at its gates). Ratio wedged / healthy is the confinement figure.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(ConfinementBenchmark.BATCH)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class ConfinementBenchmark {
    static final int BATCH = 1000;

    /** Two producers on two drain shards; shard 0's collector may be wedged. */
    @State(Scope.Benchmark)
    public static class Pair implements Collector {
        @Param({"false", "true"})
        boolean wedged;
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean running = new AtomicBoolean(true);
        final BenchPipelines.TouchingCollector touch = new BenchPipelines.TouchingCollector();
        Pipeline pipeline;
        LaneWriter peer;
        Thread background;
        long n;

        @Override
        public void accept(DrainedBuffer b) throws Exception {
            if (wedged && b.lane() == 0) {
                release.await();
            }
            touch.accept(b);
        }

        @Setup(Level.Trial)
        public void setUp() {
            PipelineConfig.Builder b = PipelineConfig.builder("confinement").drainShards(2)
                    .backstop(Duration.ofHours(1));
            int kind = b.pool(new PoolSpec("bench", 32, 1000, 8));
            b.lane(kind, 0);
            b.lane(kind, 1);
            pipeline = Pipeline.start(b.build(), this);
            peer = pipeline.writer(1);
            LaneWriter wedgedLane = pipeline.writer(0);
            background = new Thread(() -> {
                long m = 0;
                while (running.get()) {
                    m = BenchPipelines.write32(wedgedLane, m, BATCH);
                }
                wedgedLane.flush();
            }, "bench-shard0-producer");
            background.start();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            running.set(false);
            release.countDown();
            background.join();
            peer.flush();
            BenchPipelines.report("confinement wedged=" + wedged, pipeline.stop());
            pipeline.close();
        }
    }

    @Benchmark
    public void peerLane(Pair p) {
        p.n = BenchPipelines.write32(p.peer, p.n, BATCH);
    }
}
