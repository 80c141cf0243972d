package dev.dfx.bench.perf;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.symbol.Symbolizer;
import dev.dfx.perf.unwind.UserStackUnwinder;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * DWARF unwinding cost side by side, on a {@code --call-graph dwarf} recording: {@code perf script --no-inline} and
 * {@code dfx script} as command lines (output to /dev/null; wall and user CPU seconds from {@code /usr/bin/time},
 * since the CPU time moves less with the machine's load), each also with {@code -F comm,tid,time,event}, which
 * resolves no callchain, so that the difference is the cost of callchains (unwinding, lookup, printing); then
 * {@link UserStackUnwinder#unwind} alone in-process, timed around each call, pass after pass (the first pass cold).
 * Prints samples/s, unwound frames/s and {@code uptime} before and after; asserts nothing.
 *
 * <p>Usage: {@code java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.perf.UnwindComparison FILE [PASSES]
 * [DFX_LAUNCHER]}. A recording: {@code perf record -N -m 2048 -e cpu-clock -c 100000 --call-graph dwarf -o
 * dwarf.data -- PROGRAM}.
 */
public final class UnwindComparison {
    private static final String NO_CALLCHAIN = "comm,tid,time,event";

    private UnwindComparison() {
    }

    /** Runs the comparison and prints its lines. */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        String dfx = args.length > 2 ? args[2] : "./dfx";
        String in = file.toString();
        System.out.println("uptime before: " + uptime());
        report("perf script --no-inline", List.of("perf", "script", "--no-inline", "-i", in));
        report("perf script -F " + NO_CALLCHAIN, List.of("perf", "script", "-F", NO_CALLCHAIN, "-i", in));
        report("dfx script", List.of(dfx, "script", "-i", in));
        report("dfx script -F " + NO_CALLCHAIN, List.of(dfx, "script", "-F", NO_CALLCHAIN, "-i", in));
        for (int pass = 0; pass < passes; pass++) {
            unwindPass(file, pass);
        }
        System.out.println("uptime after:  " + uptime());
    }

    /** One pass over the recording: the machine model kept current, every sample unwound. */
    private static void unwindPass(Path file, int pass) {
        try (PerfSession s = PerfSession.open(file, file.toString())) {
            SymbolOptions options = SymbolOptions.defaults();
            Symbolizer symbols = Symbolizer.create(s, options);
            UserStackUnwinder unwinder = UserStackUnwinder.of(options, symbols);
            Machine machine = new Machine();
            long samples = 0;
            long frames = 0;
            long nanos = 0;
            for (Iterator<TimedRecord> it = s.processingOrder(true); it.hasNext(); ) {
                TimedRecord t = it.next();
                symbols.observe(t.record());
                machine.process(t.record());
                if (t.record().type() == RecordType.SAMPLE && t.sample() != null) {
                    long t0 = System.nanoTime();
                    frames += unwinder.unwind(t.sample(), machine.findOrCreate(t.sample().pid(),
                        t.sample().tid())).length;
                    nanos += System.nanoTime() - t0;
                    samples++;
                }
            }
            double sec = nanos / 1e9;
            System.out.printf("unwind pass %d: %,d samples, %,d user frames in %.3f s: %,.0f samples/s, %,.0f "
                + "frames/s%n", pass, samples, frames, sec, samples / sec, frames / sec);
        }
    }

    /** Runs {@code cmd} under {@code /usr/bin/time} and prints its wall and CPU seconds. */
    private static void report(String what, List<String> cmd) throws Exception {
        File times = Files.createTempFile("unwind-time", ".txt").toFile();
        List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-o", times.getPath(), "-f", "%e %U %S"));
        timed.addAll(cmd);
        Process p = new ProcessBuilder(timed).redirectOutput(new File("/dev/null"))
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("failed: " + cmd);
        }
        String[] t = Files.readString(times.toPath(), StandardCharsets.UTF_8).strip().split(" ");
        times.delete();
        System.out.printf("%-36s wall %7s s  user %7s s  sys %7s s%n", what, t[0], t[1], t[2]);
    }

    private static String uptime() throws Exception {
        Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }
}
