package dev.dfx.bench;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Producer cost of one 32-byte record (four longs), side by side in one run: a dfx lane (claim + four stores,
 * buffer switch amortised over 1000-record buffers, host threads draining to a collector that only touches each
 * buffer, so collector cost is left to the throughput benchmarks), the same four stores with no pipeline, a JFR
 * custom event with a recording on (to disk, no stack trace), and a drop-on-full Agrona
 * {@code OneToOneRingBuffer} with a consumer thread. Each invocation writes {@value #BATCH} records; SampleTime
 * gives the distribution (p50 = median) of the per-record cost over batches. Numbers only, never asserted.
 */
@BenchmarkMode({Mode.SampleTime, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(ProducerCostBenchmark.BATCH)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class ProducerCostBenchmark {
    static final int BATCH = 1000;

    /** One dfx lane, one producer (the benchmark thread); the collector only touches each buffer. */
    @State(Scope.Benchmark)
    public static class Dfx {
        Pipeline pipeline;
        LaneWriter writer;
        long n;

        @Setup(Level.Trial)
        public void setUp() {
            pipeline = BenchPipelines.start("producer-cost", 1, 1, 32, 1000, 8,
                    new BenchPipelines.TouchingCollector());
            writer = pipeline.writer(0);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            writer.flush();
            BenchPipelines.report("producer-cost", pipeline.stop());
            pipeline.close();
        }
    }

    /** The floor: the same four stores into a 32 KiB segment, no pipeline, no counting. */
    @State(Scope.Benchmark)
    public static class Raw {
        final MemorySegment buffer = Arena.ofAuto().allocate(32 * 1000, 64);
        long n;
    }

    /** A JFR custom event with four long fields. */
    @Name("dev.dfx.bench.Record")
    @StackTrace(false)
    public static class RecordEvent extends Event {
        long a;
        long b;
        long c;
        long d;
    }

    /** A JFR recording with {@link RecordEvent} enabled, written to disk. */
    @State(Scope.Benchmark)
    public static class Jfr {
        JfrDiskRecording jfr;
        long n;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            jfr = new JfrDiskRecording(RecordEvent.class, null);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            jfr.close();
        }
    }

    /** A 1 MiB Agrona one-to-one ring, drained by a consumer thread; a full ring drops (and counts) the record. */
    @State(Scope.Benchmark)
    public static class Agrona {
        OneToOneRingBuffer ring;
        UnsafeBuffer record;
        Thread consumer;
        final AtomicBoolean running = new AtomicBoolean(true);
        long n;
        long failed;
        long consumed;

        @Setup(Level.Trial)
        public void setUp() {
            ring = new OneToOneRingBuffer(new UnsafeBuffer(
                    ByteBuffer.allocateDirect((1 << 20) + RingBufferDescriptor.TRAILER_LENGTH)));
            record = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
            MessageHandler h = (type, buf, index, length) -> consumed += buf.getLong(index);
            consumer = new Thread(() -> {
                while (running.get()) {
                    if (ring.read(h) == 0) {
                        Thread.onSpinWait();
                    }
                }
            });
            consumer.setDaemon(true);
            consumer.start();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            running.set(false);
            consumer.join();
            System.err.printf("%n[agrona] records %d dropped on full ring %d%n", n, failed);
        }
    }

    @Benchmark
    public void dfxLane(Dfx s) {
        s.n = BenchPipelines.write32(s.writer, s.n, BATCH);
    }

    @Benchmark
    public void rawStores(Raw s) {
        MemorySegment b = s.buffer;
        long n = s.n;
        for (int i = 0; i < BATCH; i++, n++) {
            long off = (long) i * 32;
            b.set(BenchPipelines.LE, off, n);
            b.set(BenchPipelines.LE, off + 8, n);
            b.set(BenchPipelines.LE, off + 16, n);
            b.set(BenchPipelines.LE, off + 24, n);
        }
        s.n = n;
    }

    @Benchmark
    public void jfrEvent(Jfr s) {
        long n = s.n;
        for (int i = 0; i < BATCH; i++, n++) {
            RecordEvent e = new RecordEvent();
            e.a = n;
            e.b = n;
            e.c = n;
            e.d = n;
            e.commit();
        }
        s.n = n;
    }

    @Benchmark
    public void agronaRing(Agrona s) {
        long n = s.n;
        UnsafeBuffer r = s.record;
        for (int i = 0; i < BATCH; i++, n++) {
            r.putLong(0, n);
            r.putLong(8, n);
            r.putLong(16, n);
            r.putLong(24, n);
            if (!s.ring.write(1, r, 0, 32)) {
                s.failed++;
            }
        }
        s.n = n;
    }
}
