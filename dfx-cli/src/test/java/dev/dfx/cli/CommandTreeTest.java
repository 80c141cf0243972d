package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@link Main#commandLine(String[])} builds only the subcommand a command line names (start-up); that tree must
 * answer exactly as the whole one does: same help, same options, same parse errors, same version text.
 */
class CommandTreeTest {
    static List<String> subcommands() {
        return List.copyOf(Main.commandLine().getSubcommands().keySet());
    }

    @ParameterizedTest
    @MethodSource("subcommands")
    void aTreeWithOneSubcommandDescribesItAsTheWholeTreeDoes(String name) {
        CommandLine whole = Main.commandLine().getSubcommands().get(name);
        CommandLine one = Main.commandLine(new String[] {name, "--help"}).getSubcommands().get(name);
        if (name.equals("help")) {
            assertThat(Main.commandLine(new String[] {name}).getSubcommands()).as("dfx help lists every command")
                    .hasSize(subcommands().size());
            return;
        }
        assertThat(Main.commandLine(new String[] {name}).getSubcommands()).containsOnlyKeys(name);
        assertThat(one.getUsageMessage()).isEqualTo(whole.getUsageMessage());
        assertThat(one.getCommandSpec().qualifiedName()).isEqualTo(whole.getCommandSpec().qualifiedName());
        assertThat(one.isStopAtPositional()).isEqualTo(whole.isStopAtPositional());
        assertThat(one.getCommandSpec().version()).isEqualTo(whole.getCommandSpec().version());
        assertThat(one.getCommandSpec().options()).extracting(o -> String.join(",", o.names()))
                .isEqualTo(whole.getCommandSpec().options().stream().map(o -> String.join(",", o.names())).toList());
    }

    /** Runs {@code args} on the whole tree, as dfx did before it built one subcommand only. */
    private static CliRun onWholeTree(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine whole = Main.commandLine();
        whole.setOut(new PrintWriter(out));
        whole.setErr(new PrintWriter(err));
        int status = whole.execute(args);
        return new CliRun(status, out.toString(), err.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"record", "report", "audit", "script", "dump", "export", "list", "stat"})
    void aBadCommandLineIsTheSameUsageError(String name) {
        for (String[] args : List.of(new String[] {name, "--no-such-option"}, new String[] {name, "-i"})) {
            CliRun expected = onWholeTree(args);
            CliRun run = CliRun.dfx(args);
            assertThat(run.status()).as(String.join(" ", args)).isEqualTo(expected.status()).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).isEqualTo(expected.err()).startsWith("dfx: " + name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-V", "--version"})
    void theVersionIsWhatPicocliPrintsForTheWholeTree(String option) {
        CliRun expected = onWholeTree(option);
        assertThat(expected.status()).isZero();
        CliRun run = CliRun.dfx(option);
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo(expected.out()).startsWith("dfx ");
        assertThat(run.err()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "help"})
    void theOverviewStillListsEveryCommand(String option) {
        CliRun run = CliRun.dfx(option);
        assertThat(run.status()).isZero();
        for (String name : subcommands()) {
            assertThat(run.out()).contains("  " + name + " ");
        }
    }
}
