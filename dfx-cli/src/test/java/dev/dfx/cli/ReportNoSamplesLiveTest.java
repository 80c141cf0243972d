package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A report with no entry: a recording that holds no sample (a tracepoint the recorded program never hits), or one
 * whose samples all fall outside {@code --time}. perf report (its {@code __cmd_report}) then prints only its hint
 * lines on standard output and {@code The X data has no samples!} on standard error, and exits 0: dfx prints the
 * same standard output, one line naming the input, and exits 0.
 */
class ReportNoSamplesLiveTest {
    @TempDir
    static Path dir;

    @ParameterizedTest(name = "report {0}")
    @ValueSource(strings = {"", "-q", "--header", "--sort comm,sym -n", "--sort comm,sym --comm foo -S bar",
        "-F comm,sym --comm foo -q", "--sort comm --comm foo --header"})
    void aRecordingWithoutSamplesPrintsPerfsHintAloneAndSaysSo(String options) throws Exception {
        Path data = noSamples();
        String perf = perfReport(data.toString(), options);
        CliRun dfx = CliRun.dfx(LiveReport.dfxArgs(data.toString(), dir.resolve("cache"), options));

        assertThat(dfx.status()).as(dfx.err()).isZero();
        assertThat(dfx.out()).isEqualTo(perf);
        assertThat(dfx.err()).isEqualTo("dfx report: " + data + ": no samples to report\n");
    }

    @Test
    void aStreamWithoutSamplesPrintsPerfsHintAloneAndSaysSo() throws Exception {
        Path stream = dir.resolve("none.pipe");
        if (!Files.exists(stream)) {
            List<String> cmd = List.of(LiveRecording.perf(), "record", "-q", "-e", "sched:sched_kthread_stop", "-o",
                "-", "--", "true");
            assertThat(LiveRecording.run(cmd, stream.toFile())).isZero();
        }
        String perf = LiveRecording.perfOutput(dir, "report", "--stdio", "-i", stream.toString());

        DfxProcess.Done done = DfxProcess.start(dir, List.of(), Map.of(), stream, "report", "-i", "-").finish();

        assertThat(done.status()).as(done.output()).isZero();
        assertThat(perf).startsWith("# To display the perf.data header info");
        assertThat(done.stdout()).isEqualTo(perf);
        assertThat(done.stderr()).isEqualTo("dfx report: pipe: no samples to report\n");
    }

    /**
     * A stream torn inside its last record, before any sample: the hint lines perf prints for the stream ended at the
     * last whole record (the same as for the whole stream), then one line naming the tear, exit 1.
     */
    @Test
    void aTornStreamWithoutSamplesPrintsTheHintsAndNamesTheTear() throws Exception {
        aStreamWithoutSamplesPrintsPerfsHintAloneAndSaysSo();
        Path stream = dir.resolve("none.pipe");
        byte[] whole = Files.readAllBytes(stream);
        Path torn = Files.write(dir.resolve("torn.pipe"), java.util.Arrays.copyOf(whole, whole.length - 3));
        String perf = LiveRecording.perfOutput(dir, "report", "--stdio", "-i", stream.toString());

        DfxProcess.Done done = DfxProcess.start(dir, List.of(), Map.of(), torn, "report", "-i", "-").finish();

        assertThat(done.status()).as(done.output()).isEqualTo(1);
        assertThat(done.stdout()).isEqualTo(perf);
        assertThat(done.stderr()).startsWith("dfx: pipe: byte offset ").hasLineCount(1);
    }

    /** Samples recorded, none in the time range asked: no entry either (perf drops them before its hists). */
    @Test
    void samplesOutsideTheTimeRangeAskedLeaveNoEntry() throws Exception {
        Path data = dir.resolve("some.data");
        if (!Files.exists(data)) {
            data = LiveRecording.record(dir, "some.data", "-e", "cpu-clock", "-c", "100000");
        }
        String perf = perfReport(data.toString(), "--time 1,2");
        CliRun dfx = CliRun.dfx(LiveReport.dfxArgs(data.toString(), dir.resolve("cache"), "--time 1,2"));

        assertThat(CliRun.dfx("report", "-i", data.toString()).out()).contains("% ");
        assertThat(dfx.status()).as(dfx.err()).isZero();
        assertThat(dfx.out()).isEqualTo(perf).startsWith("# To display the perf.data header info");
        assertThat(dfx.err()).isEqualTo("dfx report: " + data + ": no samples to report\n");
    }

    /** A recording of the renamer program with a tracepoint it never hits: no sample. */
    private static Path noSamples() throws Exception {
        Path data = dir.resolve("none.data");
        return Files.exists(data) ? data : LiveRecording.record(dir, "none.data", "-e", "sched:sched_kthread_stop");
    }

    private static String perfReport(String data, String options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("--buildid-dir", dir.resolve("cache").toString(), "report", "-i",
            data, "--stdio"));
        if (!options.isEmpty()) {
            cmd.addAll(Arrays.asList(options.split(" ")));
        }
        return LiveRecording.perfOutput(dir, cmd.toArray(String[]::new));
    }
}
