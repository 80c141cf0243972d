package dev.dfx.perf.dwarf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.report.PerfReport;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.text.TextSink;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inlined frames as the real perf 6.1 prints them by default, on recordings made here: inlinework.c built with
 * {@code -g -O2} (static functions inlined three levels deep into a recursive function, a shared library with its
 * own inlined function) without and with frame pointers, recorded with {@code --call-graph dwarf} (perf expands
 * each unwound frame into its inlined functions: {@code leaf+0x.. (inlined)}) and with frame-pointer callchains
 * ({@code -g}: perf 6.1 expands nothing there); the same program without debug information; and cxxinline.cpp
 * built with g++ and recorded with {@code --call-graph dwarf} (std::sort with a lambda, a class template's member
 * function: addr2line names them by the symbol table or by {@code DW_AT_name} depending on the questions perf
 * asked before, in an order that differs between {@code perf script} and {@code perf report}'s children mode).
 * {@code dfx script} (default fields, {@code -F ip,sym,symoff,dso}, {@code -F ip,sym}, {@code -F ip}) and
 * {@code dfx report} (children, {@code --no-children}, {@code -g none}) equal perf's output byte for byte, with
 * perf's default and with {@code --no-inline}. Both sides use an empty build-id cache. Skipped, with the reason,
 * where perf is missing or may not record.
 */
class LiveInlineTest {
    /** perf's random tip at the end of a report: {@code #}, {@code # (Tip: ...)}, {@code #}. */
    private static final int TIP_LINES = 3;

    @TempDir
    static Path dir;
    private static Path emptyCache;

    @BeforeAll
    static void buildAndRecord() throws IOException {
        LivePerf.assumeRecords(dir);
        String cc = CPrograms.compiler();
        String src = Path.of("src/test/c").toAbsolutePath().toString();
        String rpath = "-Wl,-rpath,$ORIGIN";
        CPrograms.run(dir, List.of(cc, "-g", "-O2", "-fPIC", "-shared", "-o", "libinlinelib.so",
            src + "/inlinelib.c"));
        CPrograms.run(dir, List.of(cc, "-g", "-O2", "-o", "inlinework", src + "/inlinework.c", "-L.", "-linlinelib",
            rpath));
        CPrograms.run(dir, List.of(cc, "-g", "-O2", "-fno-omit-frame-pointer", "-o", "inlinework-fp",
            src + "/inlinework.c", "-L.", "-linlinelib", rpath));
        CPrograms.run(dir, List.of(cc, "-O2", "-o", "inlinework-nodebug", src + "/inlinework.c", "-L.",
            "-linlinelib", rpath));
        CPrograms.run(dir, List.of(CPrograms.cxxCompiler(), "-g", "-O2", "-o", "cxxinline",
            src + "/cxxinline.cpp"));
        emptyCache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        recordShowing("dwarf.data", "./inlinework");
        record("dwarf-fp.data", "--call-graph", "dwarf", "--", "./inlinework-fp", "200");
        record("fp.data", "-g", "--", "./inlinework-fp", "200");
        record("nodebug.data", "--call-graph", "dwarf", "--", "./inlinework-nodebug", "100");
        record("cxx.data", "--call-graph", "dwarf", "--", "./cxxinline", "100");
    }

    @ParameterizedTest(name = "perf script {1} {2} of {0}")
    @CsvSource(delimiter = '|', value = {
        "dwarf|||leaf\\+0x[0-9a-f]+ \\(inlined\\)\\n\\s+[0-9a-f]+ mid\\+0x[0-9a-f]+ \\(inlined\\)",
        "dwarf||-F ip,sym,symoff,dso|lib_mix\\+0x[0-9a-f]+ \\(inlined\\)\\n\\s+[0-9a-f]+ inlinelib_work\\+0x",
        "dwarf||-F ip,sym|top \\(inlined\\)",
        "dwarf||-F ip|(?m)^\\s+[0-9a-f]+ \\(inlined\\)$",
        "dwarf|--no-inline||recurse\\+0x",
        "dwarf-fp|||mid\\+0x[0-9a-f]+ \\(inlined\\)",
        "dwarf-fp|--no-inline|-F ip,sym,symoff,dso|recurse\\+0x",
        "fp|||recurse\\+0x",
        "nodebug|||recurse\\+0x",
        "cxx|||operator\\(\\)\\+0x[0-9a-f]+ \\(inlined\\)\\n\\s+[0-9a-f]+ operator\\(\\)<",
        "cxx||-F ip,sym|__unguarded_partition<.* \\(inlined\\)",
        "cxx|--no-inline||__introsort_loop<",
    })
    void scriptEqualsPerf(String name, String inline, String fields, String expect) throws IOException {
        Path data = dir.resolve(name + ".data");
        boolean noInline = inline != null;
        String ours = Goldens.script(data, data.getFileName().toString(), fields == null ? null : fields.substring(3),
            SymbolOptions.defaults().withBuildIdDir(emptyCache).withInline(!noInline));
        List<String> args = new ArrayList<>(List.of("--buildid-dir", emptyCache.toString(), "script"));
        if (noInline) {
            args.add("--no-inline");
        }
        if (fields != null) {
            args.addAll(Arrays.asList(fields.split(" ")));
        }
        args.addAll(List.of("-i", data.getFileName().toString()));
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf script status").isZero();
        Goldens.assertSame(name + " " + inline + " " + fields, perf.out(), ours);
        assertThat(ours).containsPattern(expect);
        if (name.startsWith("dwarf") || name.equals("cxx")) {
            assertThat(ours.contains("(inlined)")).as("inlined frames in " + name + " " + inline).isEqualTo(!noInline);
        }
        if (name.equals("fp")) {
            assertThat(ours).as("frame-pointer chains are not expanded by perf 6.1").doesNotContain("(inlined)");
        }
        if (name.equals("nodebug")) {
            // the program's own function, not a kernel symbol that merely contains the word (mas_leaf_max_gap)
            assertThat(ours).as("no debug information in the program").doesNotContainPattern("\\sleaf[+ ]");
        }
    }

    @ParameterizedTest(name = "perf report {1} {0}")
    @CsvSource(delimiter = '|', value = {"dwarf|", "dwarf|--no-children", "dwarf|-g none", "dwarf|--no-inline",
        "dwarf-fp|", "fp|", "cxx|", "cxx|--no-children", "cxx|-g none"})
    void reportEqualsPerf(String name, String option) throws IOException {
        Path data = dir.resolve(name + ".data");
        List<String> args = new ArrayList<>(List.of("--buildid-dir", emptyCache.toString(), "report", "--stdio",
            "-i", data.getFileName().toString()));
        if (option != null) {
            args.addAll(Arrays.asList(option.split(" ")));
        }
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf report status").isZero();
        String[] lines = perf.out().split("\n", -1);
        assertThat(lines[lines.length - 3]).as("perf's tip").startsWith("# (");
        String expected = String.join("\n", Arrays.copyOf(lines, lines.length - 1 - TIP_LINES)) + "\n";
        SymbolOptions symbols = SymbolOptions.defaults().withBuildIdDir(emptyCache)
            .withInline(!"--no-inline".equals(option));
        PerfReport.Options opt = new PerfReport.Options(null, null,
            "--no-children".equals(option) ? Boolean.FALSE : null, !"-g none".equals(option), null, symbols);
        String ours = Goldens.capture(out -> {
            try (PerfSession s = PerfSession.open(data, data.getFileName().toString())) {
                TextSink sink = new TextSink(out);
                PerfReport.print(s, opt, sink);
                sink.flush();
            }
        });
        Goldens.assertSame(name + " report " + option, expected, ours);
        if (name.equals("dwarf") && option == null) {
            assertThat(ours).contains("[.] leaf (inlined)").contains("top (inlined)");
        }
        if (name.equals("cxx") && option == null) {
            assertThat(ours).contains("[.] operator() (inlined)");
        }
    }

    /**
     * Records {@code program} with DWARF callchains until perf's own listing of the recording has samples in both
     * inlined loops the dwarf cases look for (the program's leaf and the shared library's lib_mix): where they land
     * is the sampling's, and a short run on a fast machine can take no sample in the library (its pattern then has
     * nothing to match, in perf's output as in dfx's). 200 iterations, then 4 and 16 times as many.
     */
    private static void recordShowing(String out, String program) throws IOException {
        for (int iterations = 200; ; iterations *= 4) {
            record(out, "--call-graph", "dwarf", "--", program, Integer.toString(iterations));
            LivePerf listing = LivePerf.run(dir, "--buildid-dir", emptyCache.toString(), "script", "-i", out);
            assertThat(listing).isNotNull();
            assertThat(listing.status()).as("perf script -i " + out).isZero();
            if (listing.out().contains("lib_mix") && listing.out().contains("leaf") || iterations >= 3200) {
                return;
            }
        }
    }

    private static void record(String out, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("record", "-N", "-q", "-e", "cpu-clock", "-F", "2000", "-o", out));
        cmd.addAll(List.of(args));
        LivePerf rec = LivePerf.run(dir, cmd.toArray(String[]::new));
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf " + String.join(" ", cmd)).isZero();
    }
}
