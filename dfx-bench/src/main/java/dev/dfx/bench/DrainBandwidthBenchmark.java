package dev.dfx.bench;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Drained bytes against single-core copy bandwidth. Every method moves 64 KiB per operation, so
 * bytes/s = ops/s x 65536:
 * <ul>
 *   <li>{@code memcpy}: one thread copies 64 KiB blocks from a 64 MiB source ring into a 64 MiB destination
 *       ring with {@code MemorySegment.copy};</li>
 *   <li>{@code drained}: one producer fills a lane with {@code recordSize}-byte records (copied in from a
 *       source ring) until 64 KiB have been written, through the pipeline ({@code buffersPerLane} buffers of
 *       {@code bufferBytes} per lane, BLOCK), into an in-memory collector that copies every buffer into a 64 MiB
 *       sink;</li>
 *   <li>{@code handoff}: the same two copies on two threads with nothing of the pipeline between them: the producer
 *       copies the records into one of {@code buffersPerLane} {@code bufferBytes} buffers and hands a full one over
 *       by a release of a counter; a consumer thread copies each buffer into a 64 MiB sink and hands it back the
 *       same way; both wait by spinning, then yielding. No claims, no gates, no host loop, no accounting: the
 *       ceiling of any two-thread copy pipeline on the machine;</li>
 *   <li>{@code serial}: both copies on the producer's thread (records into the buffer, a full buffer into the
 *       sink): what one core does with no hand-off.</li>
 * </ul>
 * A buffer's per-buffer costs (a publish, a wake-up, the consumer's first touch of lines the producer just wrote)
 * are spread over {@code bufferBytes}; {@code recordSize} must divide {@code bufferBytes} (JMH runs the whole cross
 * product of the parameters: pick shapes with {@code -p}). Under JMH each method runs in its own trial, so
 * {@code memcpy} is measured once, seconds away from the others: on a shared machine its ratios drift from run to
 * run. {@link DrainRatio} runs the same operations with the copy measured right before and after each slice, in one
 * process, and gives per-CPU-time ratios too: the ratios of record. Numbers only, never asserted.
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

        /** Copies the next 64 KiB block of the source ring into the destination ring. */
        void copyBlock() {
            MemorySegment.copy(src, pos, dst, pos, BLOCK);
            pos = (pos + BLOCK) % RING;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /**
     * Record size, buffers per lane and bytes per buffer (a multiple of 64 KiB): the parameters every state but
     * {@link Copy} shares (JMH wants a {@code @Param} in a {@code @State} class; this one is only inherited).
     */
    @State(Scope.Benchmark)
    public static class LaneShape {
        @Param({"32", "4096"})
        int recordSize;
        @Param({"8", "32", "4"})
        int buffersPerLane;
        @Param({"16384", "65536", "262144", "4194304"})
        int bufferBytes;
    }

    /** A state whose operation moves 64 KiB of records: how {@link DrainRatio} runs the cases outside JMH. */
    interface BlockMover {
        /** Allocates and starts what the operation needs. */
        void setUp();

        /** Moves the next 64 KiB of records. */
        void fillBlock();

        /** Stops and frees what {@link #setUp} made. */
        void tearDown() throws InterruptedException;
    }

    /** A one-lane pipeline with {@code bufferBytes} buffers and a source ring of records. */
    @State(Scope.Benchmark)
    public static class Drain extends LaneShape implements BlockMover {
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
            pipeline = BenchPipelines.start("drain-bandwidth", 1, 1, recordSize, bufferBytes / recordSize,
                    buffersPerLane, sink);
            writer = pipeline.writer(0);
        }

        /** Writes the next 64 KiB of records into the lane. */
        @Override
        public void fillBlock() {
            pos = drainBlock(writer, src, pos, recordSize);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            writer.flush();
            BenchPipelines.report("drain-bandwidth " + recordSize + " B, " + buffersPerLane + " x " + bufferBytes + " B",
                    pipeline.stop());
            pipeline.close();
            sink.close();
            arena.close();
        }
    }

    /**
     * A source ring, {@code buffersPerLane} {@code bufferBytes} buffers used in turn and a 64 MiB sink, outside the
     * pipeline. An operation copies 64 KiB of records into the buffers, moving on to the next buffer whenever one is
     * full ({@link #full}), so a buffer smaller than 64 KiB is filled and handed on several times per operation.
     */
    public abstract static class Buffers extends LaneShape implements BlockMover {
        Arena arena;
        MemorySegment src;
        MemorySegment sink;
        MemorySegment[] buffers;
        long pos;
        long sinkPos;
        /** Bytes written into the current buffer, below {@code bufferBytes}. */
        int fill;
        /** Buffers filled so far. */
        final AtomicLong published = new AtomicLong();

        void allocate() {
            arena = Arena.ofShared();
            src = BenchPipelines.ring(arena, RING, (byte) 3);
            sink = BenchPipelines.ring(arena, RING, (byte) 4);
            buffers = new MemorySegment[buffersPerLane];
            for (int i = 0; i < buffers.length; i++) {
                buffers[i] = BenchPipelines.ring(arena, bufferBytes, (byte) 0);
            }
        }

        /** Copies the next 64 KiB of records into the buffers, calling {@link #empty} and {@link #full} around each. */
        @Override
        public void fillBlock() {
            for (int done = 0; done < BLOCK;) {
                long n = published.getPlain();
                if (fill == 0) {
                    empty(n);
                }
                int len = Math.min(BLOCK - done, bufferBytes - fill);
                pos = copyRecords(src, pos, buffers[(int) (n % buffers.length)], fill, len, recordSize);
                fill += len;
                done += len;
                if (fill == bufferBytes) {
                    fill = 0;
                    full(n);
                }
            }
        }

        /** Buffer number {@code n} is about to be filled from its start. */
        abstract void empty(long n);

        /** Buffer number {@code n} is full: hand it on and count it in {@code published}. */
        abstract void full(long n);
    }

    /**
     * A bare two-thread hand-off of the buffers: the producer's counter ({@code published}) and the consumer's
     * ({@code consumed}), each written by one thread with release and read by the other with acquire; the consumer
     * thread copies each published buffer into the sink.
     */
    @State(Scope.Benchmark)
    public static class Handoff extends Buffers {
        final AtomicLong consumed = new AtomicLong();
        volatile boolean running;
        Thread consumer;

        @Setup(Level.Trial)
        public void setUp() {
            allocate();
            running = true;
            consumer = new Thread(this::consume, "handoff-consumer");
            consumer.setDaemon(true);
            consumer.start();
        }

        private void consume() {
            long sp = 0;
            for (long n = 0;; n++) {
                for (int spins = 0; published.getAcquire() <= n; spins++) {
                    if (!running) {
                        return;
                    }
                    idle(spins);
                }
                MemorySegment.copy(buffers[(int) (n % buffers.length)], 0, sink, sp, bufferBytes);
                sp = (sp + bufferBytes) % (RING - RING % bufferBytes);
                consumed.setRelease(n + 1);
            }
        }

        /** Waits (spins, then yields) until the consumer has handed buffer {@code n} back. */
        @Override
        void empty(long n) {
            for (int spins = 0; n - consumed.getAcquire() >= buffers.length; spins++) {
                idle(spins);
            }
        }

        @Override
        void full(long n) {
            published.setRelease(n + 1);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            running = false;
            consumer.join();
            arena.close();
        }
    }

    /** The same buffers and sink for one thread that does both copies. */
    @State(Scope.Benchmark)
    public static class Serial extends Buffers {
        @Setup(Level.Trial)
        public void setUp() {
            allocate();
        }

        @Override
        void empty(long n) {
        }

        /** Copies the full buffer into the sink on this thread. */
        @Override
        void full(long n) {
            MemorySegment.copy(buffers[(int) (n % buffers.length)], 0, sink, sinkPos, bufferBytes);
            sinkPos = (sinkPos + bufferBytes) % (RING - RING % bufferBytes);
            published.setPlain(n + 1);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** Spin 64 times, then yield: the waits of {@code handoff}'s two threads. */
    static void idle(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /**
     * Copies {@code len} bytes of {@code size}-byte records from {@code src} at {@code pos} into {@code b} at
     * {@code at}, record by record.
     *
     * @return the next source position
     */
    static long copyRecords(MemorySegment src, long pos, MemorySegment b, int at, int len, int size) {
        for (int off = at; off < at + len; off += size) {
            MemorySegment.copy(src, pos, b, off, size);
            pos += size;
            if (pos == RING) {
                pos = 0;
            }
        }
        return pos;
    }

    @Benchmark
    public void memcpy(Copy c) {
        c.copyBlock();
    }

    @Benchmark
    public void drained(Drain d) {
        d.fillBlock();
    }

    /**
     * Writes 64 KiB of {@code size}-byte records, copied from {@code src} at {@code pos}, into a lane: one claim and
     * one copy per record (a dropped record is skipped, its bytes not written).
     *
     * @return the next source position
     */
    static long drainBlock(LaneWriter w, MemorySegment src, long pos, int size) {
        for (int done = 0; done < BLOCK; done += size) {
            long off = w.claim();
            if (off >= 0) {
                MemorySegment.copy(src, pos, w.segment(), off, size);
            }
            pos += size;
        }
        return pos % RING;
    }

    @Benchmark
    public void handoff(Handoff h) {
        h.fillBlock();
    }

    @Benchmark
    public void serial(Serial s) {
        s.fillBlock();
    }
}
