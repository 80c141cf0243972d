package dev.dfx.bench.java;

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
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;
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
 * The cost of one slice of the Java producer API, begin + end ({@code try (Slice s = Dfx.slice("work")) {}}: two
 * clock reads and two 32-byte records into the thread's lane of a real region, hosted in this JVM by dfx-core's
 * {@link RegionHost} with a collector that drops each buffer after the drain), against a JFR custom event with the same
 * fields and timing ({@code begin()}, {@code end()}, {@code commit()}: a name and a duration from two clock reads, no
 * stack trace, recorded to disk). The clock is {@code System.nanoTime()} ({@code -p clock=monotonic}) or the TSC
 * ({@code -p clock=tsc}, as {@code DFX_CLOCK=tsc}; the host converts the ticks). {@code dfxSliceNotRecording} is the
 * same call without a region (the cost a program pays outside dfx); {@code nanoTime} is one CLOCK_MONOTONIC read,
 * {@code tsc} one TSC read as dfx-java makes it.
 * JFR reads its own tick counter, which is the TSC only where HotSpot trusts it (JFR's "fast time"), else
 * {@code os::elapsed_counter}, CLOCK_MONOTONIC. Never asserted.
 */
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class JavaSliceBenchmark {
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
            // 64 buffers of 4096 records per lane (8 MiB): a producer writing 50 M records/s fills a buffer every
            // 80 us, so a drain thread that a loaded machine keeps off its CPU for milliseconds would otherwise make
            // the benchmark measure the pop gate's wait instead of the producer (the stall count printed at the end
            // says whether it still did)
            host = RegionHost.start(dir.resolve("region"), RegionSpec.builder().userPool(4096, 64, 4).build(), drop);
            System.setProperty("dfx.region", host.file().toString());
            System.setProperty("dfx.clock", clock);
            if (!Dfx.enabled()) {
                throw new IllegalStateException("the API did not attach to " + host.file());
            }
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

    /** A JFR custom event of one slice: its name, and begin/end timing. */
    @Name("dev.dfx.bench.Slice")
    @StackTrace(false)
    public static class SliceEvent extends Event {
        String name;
    }

    /** A JFR recording with {@link SliceEvent} enabled (threshold 0), written to disk. */
    @State(Scope.Benchmark)
    public static class Jfr {
        Recording recording;
        Path dir;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            dir = Files.createTempDirectory("dfx-bench-jfr");
            recording = new Recording();
            recording.enable(SliceEvent.class).withoutStackTrace().withThreshold(java.time.Duration.ZERO);
            recording.setToDisk(true);
            recording.setDestination(dir.resolve("bench.jfr"));
            recording.start();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            recording.stop();
            recording.close();
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    @Benchmark
    public void dfxSlice(Region r) {
        try (Slice s = Dfx.slice("work")) {
            // the slice's body is empty: begin and end are what is measured
        }
    }

    @Benchmark
    public void dfxSliceNotRecording() {
        try (Slice s = Dfx.slice("work")) {
            // no region: the call returns a shared constant
        }
    }

    @Benchmark
    public void jfrEvent(Jfr j) {
        SliceEvent e = new SliceEvent();
        e.begin();
        e.name = "work";
        e.end();
        e.commit();
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
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
        return (long) TICKS.invokeExact();
    }
}
