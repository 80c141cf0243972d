package dev.dfx.bench.java;

import dev.dfx.bench.JfrDiskRecording;
import dev.dfx.java.Dfx;
import dev.dfx.java.Slice;
import dev.dfx.pipeline.Collector;
import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
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
 * The cost of one slice of the Java producer API, begin + end ({@code try (Slice s = Dfx.slice("work")) {}}: two
 * clock reads and two 32-byte records into the thread's lane of a real region, hosted in this JVM by dfx-core's
 * {@link RegionHost} with a collector that drops each buffer after the drain), against a JFR custom event with the same
 * fields and timing ({@code begin()}, {@code end()}, {@code commit()}: a name and a duration from two clock reads, no
 * stack trace, recorded to disk). The clock is {@code System.nanoTime()} ({@code -p clock=monotonic}) or the TSC
 * ({@code -p clock=tsc}, as {@code DFX_CLOCK=tsc}; the host converts the ticks). {@code dfxSliceNotRecording} is the
 * same call without a region (the cost a program pays outside dfx); {@code nanoTime} is one CLOCK_MONOTONIC read,
 * {@code tsc} one TSC read as dfx-java makes it.
 * JFR reads its own tick counter, which is the TSC only where HotSpot trusts it (JFR's "fast time"), else
 * {@code os::elapsed_counter}, CLOCK_MONOTONIC. Each score is one burst of {@value #BURST} operations, timed whole
 * (single-shot mode) and divided; read the median and the lowest of the bursts. Never asserted.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 100)
@Measurement(iterations = 200)
@OperationsPerInvocation(JavaSliceBenchmark.BURST)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class JavaSliceBenchmark {
    /**
     * Operations per measured burst: 20,000 slices are 40,000 records, 10 of a lane's 64 buffers, so a burst never
     * waits for the host, which drains everything between bursts ({@link Region#drain}). A benchmark that writes
     * without pause measures the drain thread instead as soon as a loaded machine keeps it off its CPU.
     */
    static final int BURST = 20_000;

    /**
     * A region hosted in this JVM, named to the API before its first call (the property dfx.region), and the
     * records' clock ({@code -p clock=monotonic,tsc}: the property dfx.clock, as {@code DFX_CLOCK}; each value runs
     * in a fork of its own, since the API takes both once per JVM).
     */
    @State(Scope.Benchmark)
    public static class Region {
        @Param({"monotonic", "tsc"})
        String clock;
        RegionHost host;
        Path dir;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            dir = Files.createTempDirectory("dfx-bench-slice");
            Collector drop = b -> { };
            // 64 buffers of 4096 records per lane (8 MiB), all of them lent to the lane's free queue at once (its
            // default is 4 slots, refilled by the drain thread as it drains): a burst fits (see BURST)
            host = RegionHost.start(dir.resolve("region"), RegionSpec.builder().userPool(4096, 64, 4)
                    .freeQueueSlots(64).build(), drop);
            System.setProperty("dfx.region", host.file().toString());
            System.setProperty("dfx.clock", clock);
            if (!Dfx.enabled()) {
                throw new IllegalStateException("the API did not attach to " + host.file());
            }
        }

        /**
         * Before each burst: publishes the benchmark thread's partial buffer and waits until the host has collected
         * every record written, so that the burst finds its lane's buffers free.
         */
        @Setup(Level.Iteration)
        public void drain() throws InterruptedException {
            drained(host);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            Dfx.flush();
            RegionStats s = host.stop();
            System.err.println("[dfx] java slices: clock " + clock + ", TSC calibration published " + s.tsc().isPresent()
                    + ", reconciled " + s.reconciled() + ", stalls " + s.lanes().stream()
                    .mapToLong(l -> l.stats().stallCount()).sum() + " (" + s.lanes().stream()
                    .mapToLong(l -> l.stats().stallTotalNs()).sum() / 1_000_000 + " ms), lanes "
                    + s.lanes().stream().filter(l -> l.stats().total() > 0)
                    .map(l -> l.stats().total() + " total " + l.stats().collected() + " collected "
                            + l.stats().dropped() + " dropped").toList());
            host.close();
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Flushes the calling thread's lane and waits (up to 10 s) until the host collected every record, then 20 ms
     * more for the buffers' return.
     */
    static void drained(RegionHost host) throws InterruptedException {
        Dfx.flush();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() - deadline < 0
                && !host.stats().lanes().stream().allMatch(l -> l.stats().collected() == l.stats().total())) {
            Thread.sleep(1);
        }
        // the drain thread puts a drained buffer back in its lane's free queue after the collector had it
        Thread.sleep(20);
    }

    /** A JFR custom event of one slice: its name, and begin/end timing. */
    @Name("dev.dfx.bench.Slice")
    @StackTrace(false)
    public static class SliceEvent extends Event {
        String name;
    }

    /** A JFR recording with {@link SliceEvent} enabled (threshold 0), written to disk. */
    @State(Scope.Benchmark)
    public static class Jfr {
        JfrDiskRecording jfr;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            jfr = new JfrDiskRecording(SliceEvent.class, java.time.Duration.ZERO);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            jfr.close();
        }
    }

    @Benchmark
    public void dfxSlice(Region r) {
        for (int i = 0; i < BURST; i++) {
            try (Slice s = Dfx.slice("work")) {
                // the slice's body is empty: begin and end are what is measured
            }
        }
    }

    @Benchmark
    public void dfxSliceNotRecording() {
        for (int i = 0; i < BURST; i++) {
            try (Slice s = Dfx.slice("work")) {
                // no region: the call returns a shared constant
            }
        }
    }

    @Benchmark
    public void jfrEvent(Jfr j) {
        for (int i = 0; i < BURST; i++) {
            SliceEvent e = new SliceEvent();
            e.begin();
            e.name = "work";
            e.end();
            e.commit();
        }
    }

    @Benchmark
    public long nanoTime() {
        long sum = 0;
        for (int i = 0; i < BURST; i++) {
            sum += System.nanoTime();
        }
        return sum;
    }

    /** dfx-java's TSC read (its critical downcall of {@code rdtsc}), through a constant handle to the package's own. */
    private static final MethodHandle TICKS = ticks();

    private static MethodHandle ticks() {
        try {
            Class<?> clock = Class.forName("dev.dfx.java.Clock");
            return MethodHandles.privateLookupIn(clock, MethodHandles.lookup())
                    .findStatic(clock, "ticks", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Benchmark
    public long tsc() throws Throwable {
        long sum = 0;
        for (int i = 0; i < BURST; i++) {
            sum += (long) TICKS.invokeExact();
        }
        return sum;
    }
}
