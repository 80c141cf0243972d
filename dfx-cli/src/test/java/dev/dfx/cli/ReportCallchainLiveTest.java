package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code -g} asked of a recording without callchains: perf report refuses it for a file ({@code Selected -g or
 * --branch-history. But no callchain or branch data.} on standard error, after the lines it prints before looking at
 * the samples); dfx prints the same standard output, one line naming the recording, and exits 1. perf's default
 * mode, {@code -g none}, and a pipe-mode stream (perf checks before a stream's attrs arrive) report as usual.
 */
class ReportCallchainLiveTest {
    @TempDir
    static Path dir;

    @ParameterizedTest(name = "report {0}")
    @ValueSource(strings = {"-g graph", "-g", "--call-graph=graph", "-g graph --header", "-g graph -q",
        "-g graph -I", "--sort comm -g graph", "-g caller", "-g -S spin_inner", "-g --comms nosuch",
        "-g -n -q -S spin_inner"})
    void graphAskedOfARecordingWithoutCallchainsIsRefusedAsPerfRefusesIt(String options) throws Exception {
        Path data = withoutCallchains();
        Perf perf = perfReport(data.toString(), options);
        CliRun dfx = CliRun.dfx(LiveReport.dfxArgs(data.toString(), dir.resolve("cache"), options));

        assertThat(perf.err()).contains("Selected -g or --branch-history.\nBut no callchain or branch data.\n");
        assertThat(dfx.out()).isEqualTo(perf.out());
        assertThat(dfx.status()).isEqualTo(1);
        assertThat(dfx.err()).isEqualTo("dfx: " + data + ": -g asks for callchains, but no event of the recording"
            + " samples them (perf record -g records them; -g none reports without)\n");
    }

    /** Without -g, with -g none and with --header-only (perf stops before the check) the report is perf's. */
    @ParameterizedTest(name = "report {0}")
    @ValueSource(strings = {"", "-g none", "-g graph --header-only"})
    void otherwiseTheRecordingIsReported(String options) throws Exception {
        Path data = withoutCallchains();
        Perf perf = perfReport(data.toString(), options);
        CliRun dfx = CliRun.dfx(LiveReport.dfxArgs(data.toString(), dir.resolve("cache"), options));

        assertThat(perf.err()).doesNotContain("no callchain");
        assertThat(dfx.status()).as(dfx.err()).isZero();
        // perf closes a report with a tip that dfx leaves out; --header-only prints no report
        assertThat(dfx.out()).isEqualTo(options.contains("--header-only") ? perf.out()
            : ReportLiveTest.withoutTip(perf.out()));
    }

    /** A sort key, field or CPU list the command cannot take is named first, as perf names it before the check. */
    @ParameterizedTest(name = "report {0}")
    @ValueSource(strings = {"-g --sort nosuch", "--sort nosuch -g", "-g -F nosuch", "-g -C 0"})
    void aBadOptionIsNamedBeforeTheMissingCallchains(String options) throws Exception {
        Path data = withoutCallchains();
        CliRun dfx = CliRun.dfx(LiveReport.dfxArgs(data.toString(), dir.resolve("cache"), options));

        assertThat(dfx.status()).as(dfx.err()).isNotZero();
        assertThat(dfx.err()).doesNotContain("-g asks for callchains").contains(options.contains("-C") ? "--cpu"
            : "nosuch");
    }

    /**
     * A recording with callchains: their order as perf orders them. {@code -g} alone is perf's
     * graph,0.5,caller,...: caller first also with {@code --no-children}; {@code -g graph} sets no order (callee first
     * without children); {@code -G} puts the caller first whatever {@code -g} says. With children, entries of equal
     * Children are ordered by their chains' depth, the comparison turned round in callee order (__hpp__sort_acc).
     */
    @ParameterizedTest(name = "report {0}")
    @ValueSource(strings = {"-g graph", "-g --no-children", "--no-children -g", "-g graph --no-children",
        "-g caller --no-children", "-g callee --no-children", "-g graph,0.5,callee --no-children", "-g c --no-children",
        "-g callee -G", "--no-children", "-g none", "-g none -g graph --no-children", "-g callee",
        "-g graph,0.5,callee --children", "-g callee -n", "--no-call-graph", "-g caller --no-call-graph",
        "--no-call-graph -g graph --no-children",
        "-g 0.5abc -g caller --no-children"})
    void callchainsAreOrderedAsPerfOrdersThem(String options) throws Exception {
        Path callchains = dir.resolve("g.data");
        if (!Files.exists(callchains)) {
            LiveRecording.record(dir, "g.data", "-e", "cpu-clock", "-c", "100000", "-g");
        }
        CliRun dfx = CliRun.dfx(LiveReport.dfxArgs(callchains.toString(), dir.resolve("cache"), options));
        assertThat(dfx.status()).as(dfx.err()).isZero();
        assertThat(dfx.out()).isEqualTo(ReportLiveTest.withoutTip(perfReport(callchains.toString(), options).out()));
        if (!options.contains("none") && !options.endsWith("--no-call-graph")) {
            assertThat(dfx.out()).contains("---");
        }
    }

    /** A stream without callchains is reported under -g, as by perf (it checks before a stream's attrs arrive). */
    @Test
    void aStreamWithoutCallchainsIsReported() throws Exception {
        Path stream = dir.resolve("none.pipe");
        List<String> cmd = List.of(LiveRecording.perf(), "record", "-q", "-e", "cpu-clock", "-c", "100000", "-o",
            "-", "--", "true");
        assertThat(LiveRecording.run(cmd, stream.toFile())).isZero();
        Perf perf = run(List.of(LiveRecording.perf(), "report", "--stdio", "-g", "graph", "-i", stream.toString()));
        DfxProcess.Done done = DfxProcess.start(dir, List.of(), Map.of(), stream, "report", "-g", "graph", "-i", "-")
            .finish();
        assertThat(perf.err()).doesNotContain("no callchain");
        assertThat(done.status()).as(done.output()).isZero();
        assertThat(done.stdout()).isEqualTo(ReportLiveTest.withoutTip(perf.out()));
    }

    /** perf's exit status, standard output (one char a byte) and standard error. */
    private record Perf(int status, String out, String err) {
    }

    /** A recording of the renamer program by cpu-clock, without -g. */
    private static Path withoutCallchains() throws Exception {
        Path data = dir.resolve("flat.data");
        return Files.exists(data) ? data : LiveRecording.record(dir, "flat.data", "-e", "cpu-clock", "-c", "100000");
    }

    private static Perf perfReport(String data, String options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(LiveRecording.perf(), "--buildid-dir", dir.resolve("cache")
            .toString(), "report", "-i", data, "--stdio"));
        if (!options.isEmpty()) {
            cmd.addAll(Arrays.asList(options.split(" ")));
        }
        return run(cmd);
    }

    private static Perf run(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "perf", ".out");
        Path err = Files.createTempFile(dir, "perf", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("perf finished: " + cmd).isTrue();
        return new Perf(p.exitValue(), Files.readString(out, StandardCharsets.ISO_8859_1),
            Files.readString(err, StandardCharsets.UTF_8));
    }
}
