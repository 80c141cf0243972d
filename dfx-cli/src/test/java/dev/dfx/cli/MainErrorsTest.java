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
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every failure of the command line is one {@code dfx:} line with the documented exit status. */
class MainErrorsTest {
    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        return run(Main::commandLine, args);
    }

    /** Runs {@code args} on the command tree {@code tree} builds. */
    private static Run run(Function<String[], CommandLine> tree, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(args, new PrintWriter(out), new PrintWriter(err), tree);
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

    @ParameterizedTest
    @CsvSource({"-5", "NaN", "Infinity", "-Infinity", "1e400", "100.5"})
    void aPercentLimitOutside0To100IsAUsageErrorNamingTheValueAsGiven(String value) {
        String data = dev.dfx.testing.Fixtures.testdataDir().resolve("perf/irq-a.data").toString();
        Run r = run("report", "--percent-limit", value, "-i", data);
        assertThat(r.status()).as("as for a value that is not a number").isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: report: Invalid value for option '--percent-limit': '" + value + "' is not"
                + " a percentage (0 to 100) (see 'dfx report --help')" + System.lineSeparator());
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aBadPercentLimitIsRefusedBeforeTheInputIsRead(@TempDir Path tmp) {
        Run r = run("report", "--percent-limit", "1e400", "-i", tmp.resolve("none.data").toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("'--percent-limit': '1e400' is not a percentage");
    }

    @ParameterizedTest
    @CsvSource({"0", "100", "2.5"})
    void aPercentLimitFrom0To100IsTaken(String value) {
        String data = dev.dfx.testing.Fixtures.testdataDir().resolve("perf/irq-a.data").toString();
        Run r = run("report", "--percent-limit", value, "-i", data);
        assertThat(r.status()).as(r.err()).isZero();
    }

    /** A command of the test's own that prints a line, then fails the way {@code how} says. */
    @CommandLine.Command(name = "boom")
    static final class Boom implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Parameters(index = "0")
        String how;

        @Override
        public void run() {
            spec.commandLine().getOut().println("collected before the failure");
            switch (how) {
                case "stack" -> recurse(0);
                // more elements than any JVM array holds: a real OutOfMemoryError that allocates nothing
                case "heap" -> spec.commandLine().getOut().println(new long[Integer.MAX_VALUE].length);
                default -> throw new IllegalStateException("queue corrupt");
            }
        }

        private static int recurse(int depth) {
            return recurse(depth + 1) + 1;
        }
    }


    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "stack | StackOverflowError",
        "heap  | OutOfMemoryError: Requested array size exceeds VM limit",
        "state | queue corrupt",
    })
    void anErrorOfTheJvmIsOneInternalErrorLineWithExitStatus70AndKeepsTheOutput(String how, String what) {
        Run r = run(args -> Main.commandLine(args).addSubcommand("boom", new CommandLine(new Boom())), "boom", how);
        assertThat(r.status()).isEqualTo(70);
        assertThat(r.err()).isEqualTo("dfx: internal error: " + what + " (run with DFX_DEBUG=1 for details; please"
                + " report it)" + System.lineSeparator());
        assertThat(r.out()).as("what the command printed before it failed").isEqualTo("collected before the failure"
                + System.lineSeparator());
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
        assertThat(r.err()).isEqualTo("dfx: " + none + ": no such run directory or perf.data file"
                + System.lineSeparator());
    }

    /** Every command that takes a run directory or a perf.data file says the same line for a path that is neither. */
    @Test
    void aMissingInputIsOneLineInEveryCommand(@TempDir Path tmp) {
        Path none = tmp.resolve("nonexistent");
        for (List<String> args : List.of(List.of("report", none.toString()), List.of("report", "-i", none.toString()),
                List.of("script", none.toString()), List.of("script", "-i", none.toString()),
                List.of("dump", none.toString()), List.of("export", none.toString(), "-o", tmp.resolve("t").toString()))) {
            Run r = run(args.toArray(String[]::new));
            assertThat(r.status()).as(args.toString()).isEqualTo(1);
            assertThat(r.err()).as(args.toString()).isEqualTo("dfx: " + none + ": no such run directory or perf.data"
                    + " file" + System.lineSeparator());
        }
    }

    /**
     * A symbolic link that leads nowhere is named as such, not as a missing file: one whose target was removed, one
     * that loops (to itself, or through another link); a loop on the way gets the system's reason alone.
     */
    @Test
    void aDanglingOrLoopingLinkIsNamedAsALink(@TempDir Path tmp) throws IOException {
        Path loop = java.nio.file.Files.createSymbolicLink(tmp.resolve("loop"), tmp.resolve("loop"));
        Path there = java.nio.file.Files.createSymbolicLink(tmp.resolve("there"), tmp.resolve("back"));
        java.nio.file.Files.createSymbolicLink(tmp.resolve("back"), there);
        Path gone = java.nio.file.Files.createSymbolicLink(tmp.resolve("gone"), tmp.resolve("removed.data"));
        for (Path link : List.of(loop, there, gone)) {
            String why = link == gone ? "a symbolic link whose target is gone"
                : "a symbolic link that loops (too many levels of symbolic links)";
            for (List<String> args : List.of(List.of("report", "-i", link.toString()), List.of("script", link.toString()),
                    List.of("dump", link.toString()), List.of("export", link.toString(), "-o",
                        tmp.resolve("t").toString()))) {
                Run r = run(args.toArray(String[]::new));
                assertThat(r.status()).as(args.toString()).isEqualTo(1);
                assertThat(r.err()).as(args.toString()).isEqualTo("dfx: " + link + ": " + why
                        + "; expected a run directory or perf.data file" + System.lineSeparator());
            }
        }
        // a loop on the way to the input: the system's reason (without the JDK's addition), not "no such file"
        Path inside = loop.resolve("perf.data");
        Run r = run("report", "-i", inside.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("dfx: " + inside + ": Too many levels of symbolic links; expected a run"
                + " directory or perf.data file" + System.lineSeparator());
    }

    @Test
    void anEmptyPathIsNotTheWorkingDirectory(@TempDir Path tmp) throws IOException {
        TestRun.write(tmp); // a run directory that an empty path must not be read as
        for (String cmd : List.of("script", "dump", "report")) {
            Run r = run(cmd, "-i", "");
            assertThat(r.status()).as(cmd).isEqualTo(2);
            assertThat(r.err()).as(cmd).isEqualTo("dfx: " + cmd + ": option -i: empty path; expected a perf.data file,"
                    + " a run directory or '-' (see 'dfx " + cmd + " --help')" + System.lineSeparator());
        }
        Run report = run("report", "");
        assertThat(report.status()).isEqualTo(2);
        assertThat(report.err()).isEqualTo("dfx: report: option RUN: empty path; expected a perf.data file, a run"
                + " directory or '-' (see 'dfx report --help')" + System.lineSeparator());
        Run both = run("report", "-i", "", "");
        assertThat(both.status()).isEqualTo(2);
        assertThat(both.err()).isEqualTo("dfx: report: option -i: empty path; expected a perf.data file, a run"
                + " directory or '-' (see 'dfx report --help')" + System.lineSeparator());
        Run audit = run("audit", tmp.toString(), "");
        assertThat(audit.status()).isEqualTo(2);
        assertThat(audit.out()).isEmpty();
        assertThat(audit.err()).isEqualTo("dfx: audit: option RUN: empty path; expected a run directory written by"
                + " dfx record (see 'dfx audit --help')" + System.lineSeparator());
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
