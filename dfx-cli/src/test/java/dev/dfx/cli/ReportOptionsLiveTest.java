package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dfx report} with {@code -n}, {@code -q}, {@code -G}, {@code -S}, {@code --comms}, {@code --pid},
 * {@code --tid}, {@code --cpu} and {@code --time} prints byte for byte what {@code perf report --stdio} prints
 * with them, on a fresh two-cpu recording of renamer.c made here with the real perf ({@link FilterRecording}),
 * with symbols (the program's own, libc's, the running kernel's where perf may read them) and an empty build-id
 * cache on both sides. A single-entry {@code --comms} or {@code -S} list leaves its column out and names it in a
 * {@code #} line; the lines of filtered samples are hidden but count towards the totals; {@code --time} and
 * {@code --cpu} leave samples out. perf's closing tip ({@code # (Tip: ...)}), which dfx does not print, is left out
 * of the comparison; {@code -q} prints none.
 */
class ReportOptionsLiveTest extends FilterRecordingTest {
    static Stream<String> options() {
        return Stream.of("-n", "-n --no-children", "--show-nr-samples -g none --sort sym", "-n -F overhead,sym",
            "-q", "-q -g none", "-q --no-children -n", "-G --no-children", "-G", "-G --no-children --sort dso,sym",
            "--inverted --no-children -g none", "-S spin_inner", "-S spin_inner -g none", "-S spin_inner,main",
            "-S spin_inner --no-children", "-S _dl_start_user", "--symbols spin_inner --sort comm,sym",
            "--comms true", "--comms true -g none", "--comms true,renamer", "--comm true --no-children",
            "--comms true -S spin_inner --sort comm,sym", "--comms true -F overhead,sym", "-q --comms true",
            "--pid PID", "--tid TID -n", "--pid PID --comms true", "--cpu 0", "-C 1 --no-children", "--time T1,T2",
            "--time 50%", "--time 10%/2 -q", "--time T1,T2_T3,T4 --no-children", "--cpu 1 --time 0%-90% -n");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    void dfxReportIsPerfReport(String options) throws Exception {
        List<String> opts = rec.options(options);
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", rec.cache().toString(), "report", "-i",
            rec.data().toString(), "--stdio"));
        perf.addAll(opts);
        List<String> dfx = new ArrayList<>(List.of("report", "-i", rec.data().toString(), "--buildid-dir",
            rec.cache().toString()));
        dfx.addAll(opts);
        String expected = LiveRecording.perfOutput(dir, perf.toArray(String[]::new));
        if (!opts.contains("-q")) {
            expected = ReportLiveTest.withoutTip(expected);
        }
        CliRun run = CliRun.dfx(dfx.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        ScriptGoldenTest.assertSameText("report " + opts, expected, run.out());
    }
}
