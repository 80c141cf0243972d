package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * dfx converts a {@link Path} option with {@link Main#path} instead of picocli's built-in converter (which calls
 * {@code Paths.get} by reflection): the value and the failure must be the ones picocli's own converter gives, checked
 * on a command that uses picocli's converter.
 */
class PathConverterTest {
    /** A command with one Path option and picocli's converters only. */
    @CommandLine.Command(name = "plain")
    static final class Plain {
        @CommandLine.Option(names = "-i")
        Path input;
    }

    private static CommandLine plain(boolean dfxConverter) {
        CommandLine cl = new CommandLine(new Plain());
        if (dfxConverter) {
            cl.registerConverter(Path.class, Main::path);
        }
        return cl;
    }

    @ParameterizedTest
    @ValueSource(strings = {"perf.data", "/tmp/a b/perf.data", "", "./x//y/", "dir/../z", "é.data"})
    void aPathIsWhatPicocliMakesOfIt(String value) {
        Path builtIn = plain(false).parseArgs("-i", value).matchedOption("-i").getValue();
        Path dfx = plain(true).parseArgs("-i", value).matchedOption("-i").getValue();
        assertThat(dfx).isEqualTo(builtIn).isEqualTo(Path.of(value));
    }

    @Test
    void aValueThatIsNoPathFailsWithPicocliLine() {
        String value = "a\0b";
        var builtIn = catchThrowableOfType(CommandLine.ParameterException.class,
                () -> plain(false).parseArgs("-i", value));
        var dfx = catchThrowableOfType(CommandLine.ParameterException.class,
                () -> plain(true).parseArgs("-i", value));
        assertThat(dfx.getMessage()).isEqualTo(builtIn.getMessage()).contains("Nul character not allowed");
    }

    @Test
    void dfxNamesAValueThatIsNoPathAsAUsageError() {
        CliRun r = CliRun.dfx("report", "-i", "a\0b");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("cannot convert 'a\0b' to interface java.nio.file.Path");
    }

    /**
     * script and dump take their input as text (a run directory, a perf.data file or '-'): a value that is no path
     * (a NUL, passed by an {@code @file} argument) is the usage error report's Path option gives, not an internal error.
     */
    @ParameterizedTest
    @ValueSource(strings = {"script", "dump"})
    void anInputThatIsNoPathIsTheUsageErrorReportGives(String command) {
        CliRun report = CliRun.dfx("report", "-i", "a\0b");
        CliRun r = CliRun.dfx(command, "-i", "a\0b");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo(report.err().replace("report", command));

        CliRun positional = CliRun.dfx(command, "a\0b");
        assertThat(positional.status()).isEqualTo(2);
        assertThat(positional.err()).isEqualTo("dfx: " + command + ": Invalid value for positional parameter at index 0"
                + " (FILE): cannot convert 'a\0b' to interface java.nio.file.Path (java.nio.file.InvalidPathException:"
                + " Nul character not allowed: a\0b) (see 'dfx " + command + " --help')\n");
    }

    /** perf report --kallsyms '' says "Invalid file: "; dfx names the empty path as for its other path options. */
    @ParameterizedTest
    @ValueSource(strings = {"report", "script"})
    void anEmptyKallsymsPathIsAUsageError(String command) {
        String data = dev.dfx.testing.Fixtures.testdataDir().resolve("perf/irq-a.data").toString();
        CliRun r = CliRun.dfx(command, "-i", data, "--kallsyms", "");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: " + command + ": option --kallsyms: empty path; expected a kallsyms text"
                + " file (see 'dfx " + command + " --help')\n");
    }
}
