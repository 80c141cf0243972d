package dev.dfx.perf.symbol.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.report.PerfReport;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.text.TextSink;
import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The demangling corpora as the real perf prints them: every name of {@code testdata/demangle/rust-v0-names.txt}
 * and {@code perf-passes-names.txt} (Rust v0 and legacy names, OCaml, Java, old global constructor names, bytes
 * past ASCII) given to a function of a program built here ({@link NameProgram}), recorded with the real perf
 * ({@code cpu-clock} at 20 kHz), and (1) each name's samples printed by {@code perf script} with the name's line of
 * the committed {@code .perf.txt}, (2) {@code perf script} and {@code perf report --stdio} byte for byte with dfx's.
 * Skipped, with the reason, where perf is missing or may not record.
 */
class LiveNamesTest {
    /** perf's random tip at the end of a report: {@code #}, {@code # (Tip: ...)}, {@code #}. */
    private static final int TIP_LINES = 3;
    private static final List<String> CORPORA = List.of("rust-v0-names", "perf-passes-names");

    @TempDir
    static Path dir;
    private static Path cache;
    private static Path data;
    private static Path exe;
    private static final List<String> names = new ArrayList<>();
    private static final List<String> printed = new ArrayList<>();

    @BeforeAll
    static void buildAndRecord() throws IOException {
        LivePerf.assumeRecords(dir);
        for (String corpus : CORPORA) {
            Path d = Fixtures.testdataDir().resolve("demangle");
            names.addAll(Files.readAllLines(d.resolve(corpus + ".txt"), StandardCharsets.ISO_8859_1));
            printed.addAll(Files.readAllLines(d.resolve(corpus + ".perf.txt"), StandardCharsets.ISO_8859_1));
        }
        exe = NameProgram.build(dir, names);
        cache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        LivePerf rec = LivePerf.run(dir, "--buildid-dir", cache.toString(), "record", "-q", "-N", "-e", "cpu-clock",
            "-F", "20000", "-o", "names.data", "--", "./namework", "2");
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf record").isZero();
        data = dir.resolve("names.data");
    }

    /** Each function's samples, mapped back to its name by the symbol's start (ip - symoff, as linked). */
    @Test
    void perfPrintsTheCommittedLineForEveryName() throws IOException {
        Map<Long, String> byAddress = new HashMap<>();
        // nm lists "ADDRESS TYPE NAME"; the program is not position independent, so these are run-time addresses
        Process nm = new ProcessBuilder("nm", exe.toString()).redirectErrorStream(true).start();
        for (String line : new String(nm.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1).split("\n")) {
            String[] f = line.split(" ", 3);
            if (f.length == 3 && (f[1].equals("T") || f[1].equals("t"))) {
                byAddress.put(Long.parseUnsignedLong(f[0], 16), f[2]);
            }
        }
        LivePerf perf = LivePerf.run(dir, "--buildid-dir", cache.toString(), "script", "-F", "ip,sym,symoff,dso", "-i",
            "names.data");
        assertThat(perf).isNotNull();
        assertThat(perf.status()).isZero();
        Map<String, Set<String>> seen = new HashMap<>();
        // DOTALL: a decoded name may hold U+0085, which Java's '.' would take for a line terminator
        Pattern sample = Pattern.compile("^\\s*([0-9a-f]+) (.*)\\+0x([0-9a-f]+) \\(.*/namework\\)$",
            Pattern.DOTALL);
        for (String line : perf.out().split("\n")) {
            Matcher m = sample.matcher(line);
            if (m.matches()) {
                long start = Long.parseUnsignedLong(m.group(1), 16) - Long.parseUnsignedLong(m.group(3), 16);
                String name = byAddress.get(start);
                if (name != null) {
                    seen.computeIfAbsent(name, k -> new HashSet<>()).add(m.group(2));
                }
            }
        }
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Set<String> s = seen.get(names.get(i));
            if (s == null || !s.equals(Set.of(printed.get(i)))) {
                wrong.add(names.get(i) + " -> perf printed " + s + ", committed: " + printed.get(i));
            }
        }
        assertThat(wrong).as("names whose samples perf printed otherwise (or not at all)").isEmpty();
    }

    @ParameterizedTest(name = "perf script {0}")
    @ValueSource(strings = {"", "-F ip,sym,symoff,dso", "--no-demangle -F ip,sym,dso"})
    void scriptEqualsPerf(String options) throws IOException {
        List<String> args = new ArrayList<>(List.of("--buildid-dir", cache.toString(), "script", "-k", "/dev/null"));
        if (!options.isEmpty()) {
            args.addAll(Arrays.asList(options.split(" ")));
        }
        args.addAll(List.of("-i", "names.data"));
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf script status").isZero();
        SymbolOptions opt = SymbolOptions.defaults().withBuildIdDir(cache).withKallsyms(Path.of("/dev/null"))
            .withDemangle(!options.contains("--no-demangle"));
        String fields = options.contains("-F ") ? options.substring(options.indexOf("-F ") + 3) : null;
        String ours = Goldens.script(data, "names.data", fields, opt);
        Goldens.assertSame("script " + options, perf.out(), ours);
        if (opt.demangle()) {
            assertThat(ours).contains("mycrate::main::{closure#0}", "Stdlib.array.map_154",
                "java.lang.String.hashCode()", "global constructors keyed to abc");
        }
    }

    @Test
    void reportEqualsPerf() throws IOException {
        LivePerf perf = LivePerf.run(dir, "--buildid-dir", cache.toString(), "report", "--stdio", "-k", "/dev/null",
            "-i", "names.data");
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf report status").isZero();
        String[] lines = perf.out().split("\n", -1);
        assertThat(lines[lines.length - 3]).as("perf's tip").startsWith("# (");
        String expected = String.join("\n", Arrays.copyOf(lines, lines.length - 1 - TIP_LINES)) + "\n";
        PerfReport.Options opt = new PerfReport.Options(null, null, null, false, null,
            SymbolOptions.defaults().withBuildIdDir(cache).withKallsyms(Path.of("/dev/null")));
        String ours = Goldens.capture(out -> {
            try (PerfSession s = PerfSession.open(data, "names.data")) {
                TextSink sink = new TextSink(out);
                PerfReport.print(s, opt, sink);
                sink.flush();
            }
        });
        Goldens.assertSame("report", expected, ours);
    }
}
