package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx report}'s header options print what {@code perf report --stdio} (perf 6.1) prints with them, on a fresh
 * file-mode recording ({@link FilterRecording}, with callchains) and a pipe-mode one saved to a file: {@code --header}
 * the header block and then the report without its line pointing to the header options, {@code --header-only} the
 * block alone, {@code -I} the full details (alone: nothing more for a file, the stream's features for a pipe),
 * {@code -q} no block (a file's {@code --header-only} then prints the report; a stream's prints its features alone),
 * {@code -f} nothing different; the {@code --no-} forms as perf's.
 */
class ReportHeaderLiveTest extends FilterRecordingTest {
    /** A pipe-mode recording of renamer.c ({@code perf record -o -}), saved to a file. */
    private static Path pipe;

    @BeforeAll
    static void recordPipe() throws Exception {
        pipe = dir.resolve("pipe.data");
        List<String> cmd = List.of(LiveRecording.perf(), "record", "-N", "-q", "-o", "-", "-e", "cpu-clock", "-c",
            "200000", "--", dir.resolve("renamer").toString(), LiveRecording.SPIN);
        assumeTrue(LiveRecording.run(cmd, pipe.toFile()) == 0 && Files.size(pipe) > 0, "perf record failed: " + cmd);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--header", "--header-only", "-I", "--show-info", "--header -I", "--header-only -I",
        "-q --header", "-q --header-only", "-q -I", "-q --header-only -I", "-f", "--force", "--no-force",
        "--header --no-header", "--header-only --no-header-only", "--header -g none --no-children"})
    void aFileAsPerf(String options) throws Exception {
        compare(rec.data(), options);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--header", "--header-only", "-I", "--header -I", "--header-only -I", "-q --header",
        "-q --header-only", "-q -I", "-f"})
    void aStreamAsPerf(String options) throws Exception {
        compare(pipe, options);
    }

    private static void compare(Path data, String options) throws Exception {
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", rec.cache().toString(), "report", "--stdio", "-i",
            data.toString()));
        perf.addAll(List.of(options.split(" ")));
        String expected = LiveRecording.perfOutput(dir, perf.toArray(String[]::new));
        // perf's closing tip, which dfx does not print; -q prints none, nor does a header alone
        if (expected.matches("(?s).*\n# \\([^\n]*\n#\n")) {
            expected = ReportLiveTest.withoutTip(expected);
        }
        List<String> dfx = new ArrayList<>(List.of("report", "--stdio", "--buildid-dir", rec.cache().toString(), "-i",
            data.toString()));
        dfx.addAll(List.of(options.split(" ")));
        CliRun run = CliRun.dfx(dfx.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        ScriptGoldenTest.assertSameText("report " + options, expected, run.out());
    }
}
