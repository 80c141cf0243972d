package dev.dfx.bench.perf;

import dev.dfx.perf.script.FieldSelection;
import dev.dfx.perf.script.ScriptOptions;
import dev.dfx.perf.script.ScriptPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.symbol.SymbolOptions;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * In-process {@code dfx script} throughput on one perf.data file: prints the whole file to a null stream
 * repeatedly and reports records per second and milliseconds per pass (after warm-up passes). Numbers only;
 * nothing is asserted.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.dfx.bench.perf.ScriptThroughput FILE [PASSES] [-F fields]}
 */
public final class ScriptThroughput {
    private ScriptThroughput() {
    }

    /** Runs the passes and prints one line per pass and a summary. */
    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        List<String> fields = args.length > 3 && args[2].equals("-F") ? List.of(args[3]) : List.of();
        boolean readOnly = args.length > 2 && args[2].equals("--read-only");
        double best = Double.MAX_VALUE;
        for (int i = 0; i < passes; i++) {
            long t0 = System.nanoTime();
            long records = readOnly ? readOnce(file) : runOnce(file, fields);
            double ms = (System.nanoTime() - t0) / 1e6;
            best = Math.min(best, ms);
            System.out.printf("pass %2d: %8.1f ms  %,d records  %.2f M records/s%n", i, ms, records,
                records / ms / 1000.0);
        }
        System.out.printf("best: %.1f ms%n", best);
    }

    /** Reads {@code file} once in processing order without printing; returns the number of records. */
    public static long readOnce(Path file) {
        try (PerfSession s = PerfSession.open(file, file.toString())) {
            long n = 0;
            for (var it = s.processingOrder(true); it.hasNext(); it.next()) {
                n++;
            }
            return n;
        }
    }

    /** Prints {@code file} once to a null stream without symbols; returns the number of records read. */
    public static long runOnce(Path file, List<String> fields) {
        return runOnce(file, fields, SymbolOptions.OFF);
    }

    /** Prints {@code file} once to a null stream, symbols from {@code symbols}; returns the records read. */
    public static long runOnce(Path file, List<String> fields, SymbolOptions symbols) {
        FieldSelection sel = new FieldSelection(new PrintWriter(OutputStream.nullOutputStream()));
        for (String f : fields) {
            sel.parse(f);
        }
        ScriptOptions opts = new ScriptOptions(sel, false, false, false, false, false, false, false, symbols);
        try (PerfSession s = PerfSession.open(file, file.toString())) {
            TextSink out = new TextSink(OutputStream.nullOutputStream());
            new ScriptPrinter(s, opts, out).run();
            out.flush();
            return s.stats().count(0);
        }
    }
}
