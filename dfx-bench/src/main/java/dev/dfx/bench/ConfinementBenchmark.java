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
 * Stall confinement (docs/benchmarks.md): records/s of a peer lane while a background producer keeps writing lane 0,
 * whose collector calls are healthy or wedged (each call on a lane-0 buffer is held {@value #HOLD_MS} ms, so lane 0
 * backs up and its producer waits at its gates). The peer lane is on another drain shard ({@code shard=separate})
 * or on the same one ({@code shard=same}: one drain shard serves both producers). Ratio wedged / healthy is the
 * confinement figure.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(ConfinementBenchmark.BATCH)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class ConfinementBenchmark {
    static final int BATCH = 1000;
    /** How long a wedged collector holds each call on a lane-0 buffer, ms (a bounded hold: the run always ends). */
    static final long HOLD_MS = 500;

    /** Two producers, on two drain shards or on one; lane 0's collector may be wedged. */
    @State(Scope.Benchmark)
    public static class Pair implements Collector {
        @Param({"false", "true"})
        boolean wedged;
        /** {@code separate}: the peer lane on drain shard 1; {@code same}: both lanes on drain shard 0. */
        @Param({"separate", "same"})
        String shard;
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
                release.await(HOLD_MS, TimeUnit.MILLISECONDS);
            }
            touch.accept(b);
        }

        @Setup(Level.Trial)
        public void setUp() {
            PipelineConfig.Builder b = PipelineConfig.builder("confinement")
                    .drainShards("same".equals(shard) ? 1 : 2)
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
            BenchPipelines.report("confinement wedged=" + wedged + " shard=" + shard, pipeline.stop());
            pipeline.close();
        }
    }

    @Benchmark
    public void peerLane(Pair p) {
        p.n = BenchPipelines.write32(p.peer, p.n, BATCH);
    }
}
