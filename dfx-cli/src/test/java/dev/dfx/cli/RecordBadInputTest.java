package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to {@code dfx record} gets one clear {@code dfx: ...} line naming the option and what was expected, exit
 * status 2 for a value the option cannot take (a usage error, as picocli's own) and 1 for one this machine or
 * directory cannot satisfy, and no run directory: nothing is started.
 */
class RecordBadInputTest {
    @TempDir
    Path tmp;

    /** A value the option cannot take, whatever the machine: a usage error, exit 2. */
    private static Arguments usage(List<String> options, String message) {
        return Arguments.of(options, message, 2);
    }

    /** A value the option takes that this machine or this recording cannot satisfy: bad input, exit 1. */
    private static Arguments input(List<String> options, String message) {
        return Arguments.of(options, message, 1);
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                usage(List.of("-w", "nope"), "unknown workload 'nope' (-w); expected one of flood, scoped, gemm"),
                usage(List.of("-s", "swimlane,nope"), "option -s: unknown subsystem 'nope'; expected one of"),
                usage(List.of("-s", ""), "option -s: empty; expected a comma list of swimlane, pmu, deps, args,"
                        + " scopes, or all or none"),
                usage(List.of("-s", "all,deps"), "option -s: 'all' stands alone (-s all), not in a list such as"
                        + " 'all,deps'"),
                usage(List.of("-s", "deps,none"), "option -s: 'none' stands alone"),
                usage(List.of("-s", "deps,,pmu"), "option -s: 'deps,,pmu' has an empty name"),
                usage(List.of("--arch", "nope"), "option --arch: unknown accelerator architecture 'nope'"
                        + " (expected gfx12 or gfx9)"),
                usage(List.of("--stall-threshold", "1m", "--backstop", "1ms"), "options --stall-threshold and"
                        + " --backstop: the stall threshold (1m) must be below the backstop (1ms), as a wait that"
                        + " long is a backstop expiry, not a stall"),
                usage(List.of("--backstop", "1ns"), "options --stall-threshold and --backstop: the stall threshold"
                        + " (100us) must be below the backstop (1ns)"),
                usage(List.of("--backstop", "99999999999999s"), "option --backstop: '99999999999999s' is too"
                        + " large; at most 9223372036s"),
                usage(List.of("--pool", "swimlane.core-task=0x64"),
                        "option --pool swimlane.core-task=0x64: COUNT (buffers per lane) must be 1.."),
                usage(List.of("--pool", "deps=4x-1"), "option --pool deps=4x-1: RECORDS (records per buffer)"),
                usage(List.of("--pool", "deps=1x300000"),
                        "option --pool deps=1x300000: RECORDS 300000 x 4672 B makes a submit buffer of 1401600000"
                        + " bytes, more than the 1073741824-byte limit of a buffer; expected RECORDS at most 229824"),
                usage(List.of("--pool", "swimlane.nope=1x4"),
                        "subsystem swimlane has no buffer kind 'nope'; expected one of core-task, sched-task"),
                usage(List.of("--pool", "deps"), "option --pool deps: expected KIND=COUNTxRECORDS"),
                usage(List.of("--pool", "deps=1x4", "--pool", "deps=2x8"), "option --pool deps=2x8: deps is"
                        + " given twice (--pool deps=1x4 too); give each KIND once"),
                usage(List.of("-s", "pmu", "--pool", "deps=1x4"), "option --pool deps=1x4: deps is not recorded"
                        + " (-s); its pool would be ignored"),
                usage(List.of("--pool", "deps=1x4", "--pool", "DEPS=2x8"), "option --pool DEPS=2x8: deps is"
                        + " given twice (--pool deps=1x4 too); give each KIND once"),
                input(List.of("--pool", "swimlane.sched-phase=100000x10000"),
                        "--pool swimlane.sched-phase=100000x10000: the pools need"),
                usage(List.of("--swimlane-level", "5"), "option --swimlane-level: 5 is not a level; expected 1..4"),
                usage(List.of("--args-level", "7"), "option --args-level: 7 is not a level; expected 0..3"),
                usage(List.of("--backpressure", "maybe"), "option --backpressure: 'maybe' is not a policy"),
                usage(List.of("--backstop", "soon"), "option --backstop: 'soon' is not a duration"),
                usage(List.of("--backstop", "0s"), "option --backstop: the duration must be greater than zero"),
                usage(List.of("-C", "0"), "options -S/-C: cores must be 1..256, got 0"),
                usage(List.of("-s", "swimlane", "-e", "task-clock"), "option -e: events are counted by the pmu"),
                usage(List.of("-e", "accel/no_such_event/"), "option -e: event syntax error at column 7 of"
                        + " 'accel/no_such_event/': unknown term 'no_such_event' for pmu 'accel' (valid terms: "),
                usage(List.of("-e", "nosuch/x/"), "option -e: event syntax error at column 1 of 'nosuch/x/': Cannot"
                        + " find PMU `nosuch'. Missing kernel support? (known PMUs: "),
                usage(List.of("-e", "task-clock,nosuch"), "option -e: event syntax error at column 12 of"
                        + " 'task-clock,nosuch': parser error: unknown event 'nosuch' ('dfx list' shows the known"
                        + " events) (see 'dfx record --help')"),
                input(List.of("-e", "task-clock,software/config=999/"), "option -e: event '"));
    }

    @Test
    void anEmptyRunDirectoryIsOneLineNotTheCurrentDirectory() {
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", "");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: record: option -o: empty path; expected a new or empty run directory"
                + " (see 'dfx record --help')" + System.lineSeparator());
    }

    @ParameterizedTest
    @MethodSource("badInput")
    void badOptionIsOneLineAndNothingStarts(List<String> options, String message, int status) {
        Path run = tmp.resolve("run");
        List<String> args = new ArrayList<>(List.of("record", "-o", run.toString()));
        if (!options.contains("-w")) {
            args.addAll(List.of("-w", "decoder"));
        }
        args.addAll(options);
        CliRun r = CliRun.dfx(args.toArray(String[]::new));
        assertThat(r.status()).as(r.err()).isEqualTo(status);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).startsWith("dfx: ").contains(message);
        assertThat(run).doesNotExist();
    }

    @Test
    void anOutputDirectoryThatCannotBeWrittenIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", file.resolve("run").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).startsWith("dfx: option -o: cannot write the run directory " + file.resolve("run"));
    }

    @Test
    void anOutputDirectoryThatHoldsFilesIsRefused() throws IOException {
        Path run = Files.createDirectories(tmp.resolve("run"));
        Files.writeString(run.resolve("keep.txt"), "mine");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", run.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("dfx: option -o: " + run + " exists and is not empty; give a new or empty directory"
                + System.lineSeparator());
        assertThat(run.resolve("keep.txt")).hasContent("mine");
        assertThat(run.resolve("run.json")).doesNotExist();
    }

    @Test
    void reportOfADirectoryWithoutRunJsonIsOneLine() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(dir.resolve("notes.txt"), "mine");
        CliRun r = CliRun.dfx("report", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("dfx: " + dir + ": not a run directory (neither run.json nor chunks/ in it);"
                + " expected a run directory written by dfx record, or a perf.data file" + System.lineSeparator());
    }

    @Test
    void exportOfADamagedPerfDataFileIsRefusedInOneLine() throws IOException {
        Path f = Files.write(tmp.resolve("perf.data"), new byte[] {1, 2, 3});
        CliRun r = CliRun.dfx("export", f.toString(), "-o", tmp.resolve("t.json").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("dfx: " + f + ": byte offset 0: file of 3 bytes is shorter than a perf.data header"
                + " (16 bytes at least)" + System.lineSeparator());
    }

    /**
     * A header that cannot be read: nothing on standard output in any format (docs/perf-data.md), the reader's line
     * on standard error. A child process, so that what reaches the real standard output is seen.
     */
    @ParameterizedTest
    @MethodSource("cutHeaders")
    void exportToStandardOutputOfAnUnreadableHeaderWritesNothing(int bytes, String line) throws Exception {
        Path f = Files.write(tmp.resolve("cut.data"), java.util.Arrays.copyOf(
                Files.readAllBytes(Path.of("..", "testdata", "perf", "irq-a.data")), bytes));
        for (String format : List.of("chrome", "perfetto", "html", "folded", "speedscope")) {
            DfxProcess.Done d = DfxProcess.run(tmp, "export", f.toString(), "--format", format, "-o", "-");
            assertThat(d.status()).as(format).isEqualTo(1);
            assertThat(d.stdout()).as(format).isEmpty();
            assertThat(d.stderr()).as(format).isEqualTo("dfx: " + f + ": " + line + System.lineSeparator());
        }
    }

    static Stream<Arguments> cutHeaders() {
        // irq-a.data's header (104 bytes) puts its attrs section at [232, +1152)
        return Stream.of(Arguments.of(8, "byte offset 0: file of 8 bytes is shorter than a perf.data header (16 bytes"
                + " at least)"), Arguments.of(200, "byte offset 24: attrs section [232, +1152) runs past the end of the"
                + " file (200 bytes)"));
    }
}
