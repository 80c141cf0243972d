package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.CPrograms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx report -i} against {@code perf report --stdio} where symbols decide which samples share a line: a
 * program (samework.c) with a function {@code same_work} of its own and three shared libraries (samelib.c) each
 * with a static {@code same_work}, one of them stripped (its samples unnamed), and code under a data-object symbol
 * ({@code blob}, which perf prints with an offset). perf's {@code sym} key compares the DSO's short name and then
 * the symbol's start and end ({@code sort__sym_cmp}), so the three named {@code same_work} stay three lines, and
 * an unnamed address is a line per address. Both tools read the same files with a fresh empty build-id cache
 * each. Skipped, with the reason, where perf is missing or may not record.
 */
class ReportSymbolsLiveTest {
    @TempDir
    static Path dir;

    private static Path data;

    @BeforeAll
    static void buildAndRecord() throws Exception {
        String cc = CPrograms.compiler();
        Path src = Path.of("src/test/c").toAbsolutePath();
        for (String copy : List.of("a", "b", "c")) {
            List<String> cmd = new ArrayList<>(List.of(cc, "-O1", "-fno-omit-frame-pointer", "-fPIC", "-shared",
                "-DSAME_ENTRY=same_entry_" + copy, "-o", "libsame_" + copy + ".so", src.resolve("samelib.c")
                    .toString()));
            if (copy.equals("c")) {
                cmd.add("-s");
            }
            CPrograms.run(dir, cmd);
        }
        CPrograms.run(dir, List.of(cc, "-O1", "-fno-omit-frame-pointer", "-o", "samework",
            src.resolve("samework.c").toString(), "-L.", "-lsame_a", "-lsame_b", "-lsame_c", "-Wl,-rpath,$ORIGIN"));
        data = dir.resolve("same.data");
        List<String> cmd = List.of(LiveRecording.perf(), "record", "-N", "-q", "-e", "cpu-clock", "-F", "10000", "-g",
            "-o", data.toString(), "--", dir.resolve("samework").toString(), "400");
        int status = LiveRecording.run(cmd, null);
        org.junit.jupiter.api.Assumptions.assumeTrue(status == 0 && Files.size(data) > 0,
            "perf record failed here (permissions?): " + cmd);
    }

    @ParameterizedTest(name = "perf report {0}")
    @ValueSource(strings = {"", "--no-children", "--sort sym", "--sort dso,sym -g none",
        "--no-children --sort sym,dso"})
    void sameNamesInSeveralDsosAndDataObjectsAsPerfReportsThem(String options) throws Exception {
        List<String> opts = options.isEmpty() ? List.of() : Arrays.asList(options.split(" "));
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", Files.createTempDirectory(dir, "cache")
            .toString(), "report", "-i", data.toString(), "--stdio"));
        perf.addAll(opts);
        List<String> dfx = new ArrayList<>(List.of("report", "-i", data.toString(), "--buildid-dir",
            Files.createTempDirectory(dir, "cache").toString()));
        dfx.addAll(opts);
        String expected = ReportLiveTest.withoutTip(LiveRecording.perfOutput(dir, perf.toArray(String[]::new)));
        CliRun run = CliRun.dfx(dfx.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        ScriptGoldenTest.assertSameText("same-names report " + options, expected, run.out());

        // what makes this recording a check of the rule: the same name in four DSOs, an object with its offset
        assertThat(expected.lines().filter(l -> l.contains("%") && l.contains("] same_work")).count())
            .as("same_work lines (samework, libsame_a.so, libsame_b.so)").isGreaterThanOrEqualTo(3);
        assertThat(expected).as("an unnamed address (the stripped library)").contains("[.] 0x");
        assertThat(expected).containsPattern("\\[\\.\\] blob\\+0x[0-9a-f]+");
    }
}
