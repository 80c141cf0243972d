package dev.dfx.bench.perf;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.symbol.SymbolOptions;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Symbol lookup throughput side by side: {@code perf script -F ip,sym,dso} and {@code dfx script -F ip,sym,dso}
 * on the same sampling recording (with callchains: every frame is looked up), output to /dev/null; as command
 * lines (JVM start-up and symbol loading included) and dfx in-process after warm-up (symbol tables loaded anew
 * each pass). Prints samples/s, the ratios and the machine's {@code uptime} load before and after; asserts
 * nothing.
 *
 * <p>Usage: {@code java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.perf.SymbolLookupComparison FILE
 * [RUNS] [DFX_LAUNCHER]}.
 */
public final class SymbolLookupComparison {
    private static final String FIELDS = "ip,sym,dso";

    private SymbolLookupComparison() {
    }

    /** Runs the comparison and prints a small table. */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String dfx = args.length > 2 ? args[2] : "./dfx";
        long samples = samples(file);
        System.out.println("uptime before: " + uptime());
        double[] perfMs = new double[runs];
        double[] dfxMs = new double[runs];
        for (int i = 0; i < runs; i++) {
            perfMs[i] = time(List.of("perf", "script", "-F", FIELDS, "-i", file.toString()));
            dfxMs[i] = time(List.of(dfx, "script", "-F", FIELDS, "-i", file.toString()));
        }
        SymbolOptions symbols = SymbolOptions.defaults();
        for (int i = 0; i < 2; i++) {
            ScriptThroughput.runOnce(file, List.of(FIELDS), symbols);
        }
        double[] inProcess = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            ScriptThroughput.runOnce(file, List.of(FIELDS), symbols);
            inProcess[i] = (System.nanoTime() - t0) / 1e6;
        }
        System.out.println("uptime after:  " + uptime());
        System.out.printf("file: %s (%d bytes, %,d samples), %d runs each, -F %s%n", file, file.toFile().length(),
            samples, runs, FIELDS);
        row("perf script (CLI)", perfMs, samples);
        row("dfx script (CLI)", dfxMs, samples);
        row("dfx script (in-process, warm)", inProcess, samples);
        System.out.printf("samples/s dfx CLI / perf CLI (median): %.2f%n", median(perfMs) / median(dfxMs));
        System.out.printf("samples/s dfx in-process / perf CLI (median): %.2f%n", median(perfMs) / median(inProcess));
    }

    private static long samples(Path file) {
        try (PerfSession s = PerfSession.open(file, file.toString())) {
            long n = 0;
            for (var it = s.fileOrder(); it.hasNext(); ) {
                n += it.next().record().type() == RecordType.SAMPLE ? 1 : 0;
            }
            return n;
        }
    }

    private static String uptime() throws Exception {
        Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    private static double time(List<String> cmd) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(new ArrayList<>(cmd)).redirectOutput(new File("/dev/null"))
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("failed: " + cmd);
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    private static void row(String what, double[] ms, long samples) {
        double med = median(ms);
        System.out.printf("%-32s median %10.1f ms  %,12.0f samples/s   best %10.1f ms%n", what, med,
            samples / (med / 1000), Arrays.stream(ms).min().orElse(0));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
