package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.write.PerfDataWriter;
import dev.dfx.perf.write.WriterEvent;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A thread sampled before perf saw its name: perf names it {@code :TID}, and when the thread's first COMM arrives
 * perf renames that placeholder in place, so the report lines of the early samples print, and merge under, the
 * first name (later COMMs, e.g. at exec, are names of their own). The recording is written here (thread 100 sampled
 * three times unnamed, then named {@code alpha} and sampled twice, then {@code beta} once; thread 200 named
 * {@code gamma} before its sample) and the right output is the real perf's report of it.
 */
class ReportCommRenameTest {
    @TempDir
    static Path dir;

    private static Path data;

    @BeforeAll
    static void write() throws Exception {
        PerfDataWriter w = new PerfDataWriter(1);
        WriterEvent e = w.addEvent("cpu-clock", PerfType.SOFTWARE, 0, 250_000, SampleType.IDENTIFIER
            | SampleType.IP | SampleType.TID | SampleType.TIME | SampleType.CPU | SampleType.PERIOD);
        long t = 1_000_000;
        for (int i = 0; i < 3; i++) {
            w.sample(e, 0, 100, 100, t += 1000, 0xffffffff81000000L + i, null);
        }
        w.comm(100, 100, "alpha", 0, t += 1000);
        w.comm(200, 200, "gamma", 0, t += 1000);
        for (int i = 0; i < 2; i++) {
            w.sample(e, 0, 100, 100, t += 1000, 0xffffffff81000010L, null);
        }
        w.sample(e, 0, 200, 200, t += 1000, 0xffffffff81000020L, null);
        w.comm(100, 100, "beta", 0, t += 1000);
        w.sample(e, 0, 100, 100, t += 1000, 0xffffffff81000030L, null);
        w.finishedRound();
        data = dir.resolve("rename.data");
        w.write(data);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"comm", "comm,pid", "pid,comm", "comm,sym"})
    void theEarlySamplesShowTheFirstName(String sort) throws Exception {
        String expected = ReportLiveTest.withoutTip(LiveRecording.perfOutput(dir, "report", "-i", data.toString(),
            "--stdio", "--kallsyms=/dev/null", "--sort", sort));
        assertThat(expected).as("perf renamed the placeholder").contains("alpha").doesNotContain(":100");
        CliRun run = CliRun.dfx("report", "-i", data.toString(), "-k", "/dev/null", "--sort", sort);
        assertThat(run.status()).as(run.err()).isZero();
        ScriptGoldenTest.assertSameText("rename.data --sort " + sort, expected, run.out());
    }
}
