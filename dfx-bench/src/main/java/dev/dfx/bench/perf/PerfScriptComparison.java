package dev.dfx.bench.perf;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Side by side: {@code perf script} and {@code dfx script} on the same file, output to /dev/null, as command
 * lines (JVM start-up included) and in-process (dfx's steady state after warm-up). Prints the median and best
 * of the runs and the ratios; asserts nothing.
 *
 * <p>Usage: {@code java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.perf.PerfScriptComparison
 * [FILE] [RUNS] [DFX_LAUNCHER]}; FILE defaults to the largest fixture (irq-a.data), the launcher to
 * {@code ./dfx}. Extra dfx JVM options can be passed through the launcher's {@code DFX_JAVA_OPTS}.
 */
public final class PerfScriptComparison {
    private PerfScriptComparison() {
    }

    /** Runs the comparison and prints a small table. */
    public static void main(String[] args) throws Exception {
        Path file = args.length > 0 ? Path.of(args[0]) : BenchFiles.perf("irq-a.data");
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        String dfx = args.length > 2 ? args[2] : "./dfx";
        String[] nosym = {"--kallsyms=/dev/null"};
        double[] perfMs = new double[runs];
        double[] dfxMs = new double[runs];
        for (int i = 0; i < runs; i++) {
            perfMs[i] = time(cmd("perf", "script", nosym, file));
            dfxMs[i] = time(cmd(dfx, "script", nosym, file));
        }
        // warm up for at least three passes and two seconds, so that small files are measured compiled too
        long warmEnd = System.nanoTime() + 2_000_000_000L;
        for (int i = 0; i < 3 || System.nanoTime() < warmEnd; i++) {
            ScriptThroughput.runOnce(file, List.of());
        }
        double[] inProcess = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            ScriptThroughput.runOnce(file, List.of());
            inProcess[i] = (System.nanoTime() - t0) / 1e6;
        }
        System.out.printf("file: %s (%d bytes), %d runs each%n", file, file.toFile().length(), runs);
        row("perf script (CLI)", perfMs);
        row("dfx script (CLI)", dfxMs);
        row("dfx script (in-process, warm)", inProcess);
        System.out.printf("ratio dfx CLI / perf (median): %.2f%n", median(dfxMs) / median(perfMs));
        System.out.printf("ratio dfx in-process / perf CLI (median): %.2f%n", median(inProcess) / median(perfMs));
    }

    private static List<String> cmd(String exe, String sub, String[] opts, Path file) {
        List<String> c = new ArrayList<>(List.of(exe, sub));
        c.addAll(Arrays.asList(opts));
        c.addAll(List.of("-i", file.toString()));
        return c;
    }

    private static double time(List<String> cmd) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectOutput(new File("/dev/null"))
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("failed: " + cmd);
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    private static void row(String what, double[] ms) {
        System.out.printf("%-32s median %9.1f ms   best %9.1f ms%n", what, median(ms), Arrays.stream(ms).min()
            .orElse(0));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
