package dev.dfx.perf;

import static org.assertj.core.api.Assertions.fail;

import dev.dfx.perf.dump.DumpPrinter;
import dev.dfx.perf.script.FieldSelection;
import dev.dfx.perf.script.ScriptOptions;
import dev.dfx.perf.script.ScriptPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/** Test helpers: read golden files byte for byte and compare whole outputs, reporting the first difference. */
public final class Goldens {
    /** The fixtures' recordings (NAME of NAME.data), each with dump, header and evlist goldens. */
    public static final List<String> RECORDINGS = List.of("compressed-z", "cpu-clock-c500000-g", "cpu-clock-cs-switch-a",
        "cpu-clock-g-F999", "group-read-S-rt", "inject-b", "irq-a", "page-faults-c1-notime", "page-faults-d",
        "raw-R-mixed", "sched-lost-m1-z", "sched-proc.pipe", "sched-switch-wakeup-a", "sched-wait-nanosleep",
        "stat-s-switch", "symwork-g", "syscalls-openat-raw",
        "task-clock-c100000-cpu", "timer-a", "timer-ps.pipe");

    private Goldens() {
    }

    /** @return a fixture file decoded byte-to-char (ISO-8859-1), so bytes compare exactly */
    public static String read(String name) {
        try {
            return new String(Files.readAllBytes(Fixtures.perf(name)), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return what {@code writer} writes, decoded byte-to-char */
    public static String capture(Consumer<ByteArrayOutputStream> writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        writer.accept(bytes);
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }

    /** Fails with the first differing line (1-based) when {@code actual} is not byte-identical to {@code expected}. */
    public static void assertSame(String what, String expected, String actual) {
        if (expected.equals(actual)) {
            return;
        }
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        int n = Math.min(e.length, a.length);
        for (int i = 0; i < n; i++) {
            if (!e[i].equals(a[i])) {
                fail(what + ": line " + (i + 1) + " differs%n expected: %s%n   actual: %s", e[i], a[i]);
            }
        }
        fail(what + ": expected " + e.length + " lines, got " + a.length + " (" + expected.length() + " vs "
            + actual.length() + " bytes)");
    }

    /**
     * @param file   a recording
     * @param name   its name as given to perf ({@code -i NAME})
     * @param fields a {@code -F} argument, or {@code null} for perf's defaults
     * @return what {@code perf script} prints for it, as this reader prints it
     */
    public static String script(Path file, String name, String fields) {
        return capture(bytes -> {
            try (PerfSession s = PerfSession.open(file, name)) {
                script(s, bytes, fields);
            }
        });
    }

    /**
     * Prints {@code s} as {@code perf script} does to {@code out}; what was printed before an error stays there.
     *
     * @param fields a {@code -F} argument, or {@code null} for perf's defaults
     */
    public static void script(PerfSession s, OutputStream out, String fields) {
        script(s, out, fields, SymbolOptions.OFF);
    }

    /**
     * @param fields  a {@code -F} argument, or {@code null} for perf's defaults
     * @param symbols where symbols come from
     * @return what {@code perf script} prints for {@code file}, as this reader prints it with those symbols
     */
    public static String script(Path file, String name, String fields, SymbolOptions symbols) {
        return capture(bytes -> {
            try (PerfSession s = PerfSession.open(file, name)) {
                script(s, bytes, fields, symbols);
            }
        });
    }

    /** Prints {@code s} as {@code perf script} does, resolving symbols with {@code symbols}. */
    public static void script(PerfSession s, OutputStream out, String fields, SymbolOptions symbols) {
        FieldSelection sel = new FieldSelection(new PrintWriter(OutputStream.nullOutputStream()));
        if (fields != null) {
            sel.parse(fields);
        }
        TextSink sink = new TextSink(out);
        try {
            new ScriptPrinter(s, new ScriptOptions(sel, false, false, false, false, false, false, false,
                symbols), sink).run();
        } finally {
            sink.flush();
        }
    }

    /** @return what {@code perf report -D -i NAME} prints for {@code file}, as this reader prints it */
    public static String dump(Path file, String name) {
        return capture(bytes -> {
            try (PerfSession s = PerfSession.open(file, name)) {
                TextSink out = new TextSink(bytes);
                try {
                    new DumpPrinter(s, out).run();
                } finally {
                    out.flush();
                }
            }
        });
    }

    /** @return {@code testdata/perf/NAME} */
    public static Path fixture(String name) {
        return Fixtures.perf(name);
    }
}
