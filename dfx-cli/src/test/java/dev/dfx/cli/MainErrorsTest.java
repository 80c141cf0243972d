package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.error.BadInputException;
import dev.dfx.runtext.TestRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every failure of the command line is one {@code dfx:} line with the documented exit status. */
class MainErrorsTest {
    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(status, out.toString(), err.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "record --bogus              | dfx: record: Unknown option: '--bogus' (see 'dfx record --help')",
        "record --swimlane-level=x   | dfx: record: Invalid value for option '--swimlane-level': 'x' is not an int (see 'dfx record --help')",
        "bogus                       | dfx: 'bogus' is not a dfx command (see 'dfx --help')",
        "repot -i a.data             | dfx: 'repot' is not a dfx command; did you mean report or export? (see 'dfx --help')",
        "scirpt                      | dfx: 'scirpt' is not a dfx command; did you mean script? (see 'dfx --help')",
        "help bogus                  | dfx: 'bogus' is not a dfx command (see 'dfx --help')",
        "help repot                  | dfx: 'repot' is not a dfx command; did you mean report or export? (see 'dfx --help')",
        "help scirpt                 | dfx: 'scirpt' is not a dfx command; did you mean script? (see 'dfx --help')",
        "report --bogus              | dfx: report: Unknown option: '--bogus' (see 'dfx report --help')",
        "report -i a.data b          | dfx: report: Unmatched argument 'b': the input is given with -i already (a.data) (see 'dfx report --help')",
        "script -i a.data -F         | dfx: script: Missing required parameter for option '--fields' (FIELDS) (see 'dfx script --help')",
    })
    void usageErrorsAreOneLineWithExitStatus2(String cmd, String expected) {
        Run r = run(cmd.trim().split(" +"));
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo(expected.trim() + System.lineSeparator());
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aNegativePercentLimitIsAUsageErrorNamingTheValueAsGiven() {
        String data = dev.dfx.testing.Fixtures.testdataDir().resolve("perf/irq-a.data").toString();
        Run r = run("report", "--percent-limit", "-5", "-i", data);
        assertThat(r.status()).as("as for a value that is not a number").isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: report: Invalid value for option '--percent-limit': '-5' is not a"
                + " percentage (0 or more) (see 'dfx report --help')" + System.lineSeparator());
        assertThat(r.out()).isEmpty();
    }

    @Test
    void everySubcommandPrintsTheVersionWithV() {
        Run top = run("-V");
        assertThat(top.status()).isZero();
        assertThat(top.out()).startsWith("dfx ");
        for (String cmd : List.of("record", "report", "audit", "script", "dump", "export", "list", "stat")) {
            Run r = run(cmd, "-V");
            assertThat(r.status()).as(cmd).isZero();
            assertThat(r.out()).as(cmd).isEqualTo(top.out());
        }
    }

    @Test
    void noCommandIsOneHint() {
        Run r = run();
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: missing command, e.g. dfx record (see 'dfx --help')" + System.lineSeparator());
    }

    @Test
    void aRunDirectoryThatDoesNotExistIsSaidSo(@TempDir Path tmp) {
        Path none = tmp.resolve("nonexistent");
        Run r = run("report", none.toString());
        assertThat(r.status()).isEqualTo(1);
        // a path that is not a directory is taken for a perf.data file, as perf report takes -i
        assertThat(r.err()).isEqualTo("dfx: " + none + ": no such perf.data file or run directory"
                + System.lineSeparator());
    }

    @Test
    void anEmptyPathIsNotTheWorkingDirectory(@TempDir Path tmp) throws IOException {
        TestRun.write(tmp); // a run directory that an empty path must not be read as
        for (String cmd : List.of("script", "dump")) {
            Run r = run(cmd, "-i", "");
            assertThat(r.status()).as(cmd).isEqualTo(2);
            assertThat(r.err()).as(cmd).isEqualTo("dfx: " + cmd + ": option -i: empty path; expected a perf.data file,"
                    + " a run directory or '-' (see 'dfx " + cmd + " --help')" + System.lineSeparator());
        }
        for (String cmd : List.of("report", "audit")) {
            Run r = run(cmd, "");
            assertThat(r.status()).as(cmd).isEqualTo(1);
            assertThat(r.err()).as(cmd).isEqualTo("dfx: empty path; expected a run directory written by dfx record"
                    + System.lineSeparator());
        }
    }

    @Test
    void aFileGivenToAuditIsNotARunDirectory(@TempDir Path tmp) throws IOException {
        Path file = java.nio.file.Files.writeString(tmp.resolve("busy.data"), "x");
        Run r = run("audit", file.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("dfx: " + file + ": not a run directory but a file; expected a run directory"
                + " written by dfx record" + System.lineSeparator());
    }

    @Test
    void aChunkFileGivenAsPerfDataIsNamedForWhatItIs(@TempDir Path tmp) throws IOException {
        Path chunk = TestRun.write(tmp).resolve("chunks/pmu.dfx");
        for (String cmd : List.of("script", "dump")) {
            Run r = run(cmd, "-i", chunk.toString());
            assertThat(r.status()).isEqualTo(1);
            assertThat(r.err()).isEqualTo("dfx: " + chunk + ": a dfx chunk file, not a perf.data file; give its run"
                    + " directory (dfx script RUN, dfx dump RUN)" + System.lineSeparator());
        }
    }

    @Test
    void badInputIsOneLineWithExitStatus1() {
        StringWriter err = new StringWriter();
        int status = Main.failure(new BadInputException("x.data: byte offset 8: bad magic"), new PrintWriter(err, true));
        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("dfx: x.data: byte offset 8: bad magic" + System.lineSeparator());
    }

    @Test
    void fileErrorsNameTheFileAndTheReason() {
        StringWriter err = new StringWriter();
        int status = Main.failure(new UncheckedIOException(new NoSuchFileException("/tmp/nodir/x.json")),
                new PrintWriter(err, true));
        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("dfx: /tmp/nodir/x.json: no such file or directory" + System.lineSeparator());
    }

    @Test
    void defectsAreOneLineWithExitStatus70() {
        StringWriter err = new StringWriter();
        int status = Main.failure(new IllegalStateException("queue corrupt\nsecond line"), new PrintWriter(err, true));
        assertThat(status).isEqualTo(70);
        assertThat(err.toString()).startsWith("dfx: internal error: queue corrupt second line (run with DFX_DEBUG=1")
                .hasLineCount(1);
    }
}
