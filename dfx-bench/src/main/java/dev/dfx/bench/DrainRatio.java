package dev.dfx.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Drained bytes against {@code MemorySegment.copy} with the copy measured right before and right after every slice,
 * in one process: the ratios of {@link DrainBandwidthBenchmark} (same operations, 64 KiB each) without its drift,
 * where JMH measures the copy once, in a trial of its own, seconds away from the drain it is divided into. On a
 * 2-CPU machine shared with other work the wall-time ratios still move with the scheduler (a pipeline of two or
 * three threads gets a different share of the CPUs than one copying thread): read them with the CPUs the case got,
 * and compare builds by the CPU-time ratios.
 *
 * <p>A round runs, for every shape and every case ({@code drained}, {@code handoff}, {@code serial}), a copy slice
 * and then the case: its state is set up (pipeline or threads started, rings filled), run a quarter of a slice
 * unmeasured (the hand-off reaches its steady state), run one slice measured, and torn down, so no idle thread of
 * another case runs beside it; one more copy slice ends the round. A case's ratio in a round is its bytes per second
 * over the mean of the two copy slices around it; odd rounds run the cases in reverse order. The first two rounds warm
 * the JIT and are not counted. Per case it prints the medians over the counted rounds, and the lowest and highest:
 * <ul>
 *   <li>GB/s (10^9 bytes per second of wall time) and the ratio to the copy's GB/s: the target's measure;</li>
 *   <li>GB per second of CPU time of the process less its JIT compiler threads (so the producer, host loop,
 *       collector worker or consumer, and GC; a starved process still compiles long after its first round) and its
 *       ratio to the copy's: what the drain costs, which depends less on the machine's other load than wall time
 *       does (a thread that waits for a CPU uses none); on Linux, where {@code /proc/self/task} names the compiler
 *       threads, else the whole process's;</li>
 *   <li>process CPU / wall: how many CPUs the case got.</li>
 * </ul>
 * Each line also goes out as one tab-separated {@code row} line for scripts (columns named by the {@code header}
 * line). Losses are reported by the pipeline's final counts (stderr), never asserted: BLOCK loses none.
 *
 * <pre>{@code java --enable-native-access=ALL-UNNAMED -Xmx1g -cp dfx-bench/target/benchmarks.jar \
 *     dev.dfx.bench.DrainRatio ROUNDS SLICE_MS [RECORDxBUFFERSxBUFFER_BYTES ...]}</pre>
 *
 * Without shapes: {@link #DEFAULT_SHAPES}.
 */
public final class DrainRatio {
    /**
     * 32 B records in 8 buffers of 16 KiB (dfx record's user pool before it grew to 64 KiB buffers), in dfx
     * record's user pool ({@code user=8x2048}: 8 buffers of 64 KiB) and in 8 buffers of 256 KiB; 4096 B records in 4
     * buffers of 1024 records (the shape of the large-record default, {@code deps.submit}: 4 x 1024 records of
     * 4672 B), then in 64 and 256 KiB buffers.
     */
    static final List<String> DEFAULT_SHAPES = List.of("32x8x16384", "32x8x65536", "32x8x262144", "4096x4x4194304",
            "4096x8x65536", "4096x8x262144");
    private static final String[] CASES = {"drained", "handoff", "serial"};

    private DrainRatio() {
    }

    /** One shape: record size, buffers per lane, bytes per buffer. */
    record Shape(int recordSize, int buffersPerLane, int bufferBytes) {
        static Shape parse(String s) {
            String[] p = s.split("x");
            if (p.length != 3) {
                throw new IllegalArgumentException("shape " + s + " is not RECORDxBUFFERSxBUFFER_BYTES");
            }
            Shape sh = new Shape(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]));
            if (sh.recordSize < 1 || DrainBandwidthBenchmark.BLOCK % sh.recordSize != 0 || sh.buffersPerLane < 1
                    || sh.bufferBytes < sh.recordSize || sh.bufferBytes % sh.recordSize != 0) {
                throw new IllegalArgumentException("shape " + s + ": RECORD must divide 65536, BUFFERS be positive and"
                        + " RECORD divide BUFFER_BYTES");
            }
            return sh;
        }

        @Override
        public String toString() {
            return recordSize + " B records, " + buffersPerLane + " x " + bufferBytes + " B";
        }
    }

    /** What a slice measured: bytes moved, wall ns, process CPU ns. */
    record Slice(long bytes, long wallNs, long cpuNs) {
        double gbPerS() {
            return bytes / (double) wallNs;
        }

        double gbPerCpuS() {
            return bytes / (double) Math.max(1_000_000, cpuNs);   // below 1 ms: the clock ticks of the JIT part
        }
    }

    /** @param a rounds (counted, after one warm-up round), slice length (ms), then shapes */
    public static void main(String[] a) throws InterruptedException {
        int rounds;
        long sliceNs;
        List<Shape> shapes = new ArrayList<>();
        try {
            if (a.length < 2) {
                throw new IllegalArgumentException("expected ROUNDS SLICE_MS [SHAPE ...], got " + a.length
                        + " arguments");
            }
            rounds = Integer.parseInt(a[0]);
            sliceNs = Long.parseLong(a[1]) * 1_000_000L;
            if (rounds < 1 || sliceNs < 1) {
                throw new IllegalArgumentException("ROUNDS and SLICE_MS must be positive, got " + a[0] + " " + a[1]);
            }
            for (String s : a.length > 2 ? Arrays.asList(a).subList(2, a.length) : DEFAULT_SHAPES) {
                shapes.add(Shape.parse(s));
            }
        } catch (IllegalArgumentException e) {   // NumberFormatException included
            System.err.println("dfx: DrainRatio: " + e.getMessage()
                    + " (usage: DrainRatio ROUNDS SLICE_MS [RECORDxBUFFERSxBUFFER_BYTES ...])");
            System.exit(2);
            return;
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int cases = shapes.size() * CASES.length;
        Slice[][] runs = new Slice[cases][rounds];
        Slice[][] copies = new Slice[cases][rounds];   // the mean of the copy slices before and after
        DrainBandwidthBenchmark.Copy copy = new DrainBandwidthBenchmark.Copy();
        copy.setUp();
        try {
            for (int r = -2; r < rounds; r++) {
                Slice before = measure(os, copy::copyBlock, sliceNs / 2);
                for (int i = 0; i < cases; i++) {
                    int c = (r & 1) == 0 ? i : cases - 1 - i;   // r = -1 is odd too
                    Slice s = runCase(os, CASES[c % CASES.length], shapes.get(c / CASES.length), sliceNs);
                    Slice after = measure(os, copy::copyBlock, sliceNs / 2);
                    if (r >= 0) {
                        runs[c][r] = s;
                        copies[c][r] = new Slice(before.bytes + after.bytes, before.wallNs + after.wallNs,
                                before.cpuNs + after.cpuNs);
                    }
                    before = after;
                }
            }
        } finally {
            copy.tearDown();
        }
        System.out.println("header\tcase\trecord_bytes\tbuffers\tbuffer_bytes\tgb_s\tgb_s_low\tgb_s_high\tcopy_gb_s"
                + "\tratio_pct\tratio_low\tratio_high\tgb_cpu_s\tcopy_gb_cpu_s\tcpu_ratio_pct\tcpu_ratio_low"
                + "\tcpu_ratio_high\tcpus");
        for (int c = 0; c < cases; c++) {
            print(CASES[c % CASES.length], shapes.get(c / CASES.length), runs[c], copies[c]);
        }
    }

    private static Slice runCase(OperatingSystemMXBean os, String name, Shape sh, long sliceNs)
            throws InterruptedException {
        DrainBandwidthBenchmark.LaneShape state = switch (name) {
            case "drained" -> new DrainBandwidthBenchmark.Drain();
            case "handoff" -> new DrainBandwidthBenchmark.Handoff();
            default -> new DrainBandwidthBenchmark.Serial();
        };
        DrainBandwidthBenchmark.BlockMover mover = (DrainBandwidthBenchmark.BlockMover) shape(state, sh);
        mover.setUp();
        try {
            measure(os, mover::fillBlock, sliceNs / 4);
            return measure(os, mover::fillBlock, sliceNs);
        } finally {
            mover.tearDown();
        }
    }

    private static <T extends DrainBandwidthBenchmark.LaneShape> T shape(T t, Shape sh) {
        t.recordSize = sh.recordSize;
        t.buffersPerLane = sh.buffersPerLane;
        t.bufferBytes = sh.bufferBytes;
        return t;
    }

    /** Runs {@code op} (64 KiB each) for {@code ns} of wall time. */
    private static Slice measure(OperatingSystemMXBean os, Runnable op, long ns) {
        long cpu0 = os.getProcessCpuTime() - compilerCpuNs();
        long t0 = System.nanoTime();
        long ops = 0;
        long wall;
        do {
            op.run();
            ops++;
            wall = System.nanoTime() - t0;
        } while (wall < ns);
        return new Slice(ops * DrainBandwidthBenchmark.BLOCK, wall, os.getProcessCpuTime() - compilerCpuNs() - cpu0);
    }

    /**
     * @return CPU time (user + system, ns, at the kernel's clock-tick resolution) of this process's JIT compiler
     *         threads ({@code C1 CompilerThre...}, {@code C2 CompilerThre...} in {@code /proc/self/task/N/comm}), or 0
     *         where {@code /proc} cannot tell
     */
    static long compilerCpuNs() {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    String comm = Files.readString(t.resolve("comm"));
                    if (!comm.contains("CompilerThre")) {
                        continue;
                    }
                    String stat = Files.readString(t.resolve("stat"));
                    // after the ")" that ends comm: state is field 3, utime field 14, stime field 15
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile, or no such fields: count it as none
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return ticks * 10_000_000L;   // USER_HZ is 100 on Linux
    }

    private static void print(String name, Shape sh, Slice[] runs, Slice[] copies) {
        int n = runs.length;
        double[] gb = new double[n];
        double[] ratio = new double[n];
        double[] gbCpu = new double[n];
        double[] cpuRatio = new double[n];
        double[] copyGb = new double[n];
        double[] copyGbCpu = new double[n];
        double[] cpus = new double[n];
        for (int r = 0; r < n; r++) {
            gb[r] = runs[r].gbPerS();
            copyGb[r] = copies[r].gbPerS();
            ratio[r] = 100 * gb[r] / copyGb[r];
            gbCpu[r] = runs[r].gbPerCpuS();
            copyGbCpu[r] = copies[r].gbPerCpuS();
            cpuRatio[r] = 100 * gbCpu[r] / copyGbCpu[r];
            cpus[r] = runs[r].cpuNs / (double) runs[r].wallNs;
        }
        System.out.printf(Locale.ROOT, "row\t%s\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%.0f\t%.0f\t%.2f\t%.2f\t%.0f"
                + "\t%.0f\t%.0f\t%.2f%n", name, sh.recordSize, sh.buffersPerLane, sh.bufferBytes, median(gb), min(gb),
                max(gb), median(copyGb), median(ratio), min(ratio), max(ratio), median(gbCpu), median(copyGbCpu),
                median(cpuRatio), min(cpuRatio), max(cpuRatio), median(cpus));
        System.out.printf(Locale.ROOT, "%s, %s: %.2f GB/s (%.2f-%.2f) = %.0f %% (%.0f-%.0f) of copy %.2f GB/s; per"
                + " CPU-second %.2f GB against copy %.2f = %.0f %% (%.0f-%.0f); %.2f CPUs%n", name, sh, median(gb),
                min(gb), max(gb), median(ratio), min(ratio), max(ratio), median(copyGb), median(gbCpu),
                median(copyGbCpu), median(cpuRatio), min(cpuRatio), max(cpuRatio), median(cpus));
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }
}
