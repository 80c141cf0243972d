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
}
