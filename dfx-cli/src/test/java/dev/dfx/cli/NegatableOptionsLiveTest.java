package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every boolean option of {@code dfx script}, {@code report}, {@code dump} and {@code export} that picocli makes
 * negatable takes its {@code --no-} form as perf's parse-options does for its boolean options: given both ways, the
 * last one counts. Checked on a fresh recording of renamer.c made here with the real perf ({@link FilterRecording}:
 * callchains, task and mmap records, an empty build-id cache on both sides): {@code --X --no-X} prints what
 * {@code --no-X} alone prints, {@code --no-X --X} what {@code --X} alone prints, the form of the option's default
 * what neither prints; and for script, report and dump what perf 6.1's {@code perf script}, {@code perf report
 * --stdio} and {@code perf report -D} print with the same two options (perf exits 129 for a {@code --no-} form it
 * does not take, which fails the comparison). export has no perf to compare with.
 */
class NegatableOptionsLiveTest extends FilterRecordingTest {
    /** @return (command, long option name, default value) for each negatable option of the four commands */
    static Stream<Arguments> negatable() {
        List<Arguments> out = new ArrayList<>();
        for (Object command : List.of(new ScriptCommand(), new ReportCommand(), new DumpCommand(),
            new ExportCommand())) {
            CommandLine cl = new CommandLine(command);
            for (OptionSpec o : cl.getCommandSpec().options()) {
                if (o.negatable()) {
                    out.add(Arguments.of(cl.getCommandName(), o.longestName(), o.initialValue()));
                }
            }
        }
        return out.stream();
    }

    /** The options that mirror perf's booleans are negatable; dump's -D is not (perf's negation is no dump). */
    @Test
    void theNegatableOptionsAreTheOnesThatMirrorPerfsBooleans() {
        assertThat(negatable().map(a -> a.get()[0] + " " + a.get()[1])).containsExactlyInAnyOrder(
            "script --header", "script --header-only", "script --show-info", "script --ns", "script --reltime",
            "script --deltatime", "script --show-task-events", "script --show-mmap-events",
            "script --show-switch-events", "script --show-lost-events", "script --show-namespace-events",
            "script --show-round-events", "script --force", "script --demangle", "script --inline",
            "report --children", "report --show-nr-samples", "report --inverted", "report --group", "report --quiet",
            "report --header", "report --header-only", "report --show-info", "report --force",
            "report --demangle", "report --inline", "report --stdio",
            "dump --header", "dump --header-only", "dump --show-info", "dump --force",
            "export --demangle", "export --inline");
        CliRun dump = CliRun.dfx("dump", "--no-dump-raw-trace", "-i", rec.data().toString());
        assertThat(dump.status()).isEqualTo(2);
        assertThat(dump.err()).startsWith("dfx: dump: Unknown option: '--no-dump-raw-trace'");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("negatable")
    void theLastOfBothFormsCountsAsInPerf(String command, String option, Object initial) throws Exception {
        String negated = "--no-" + option.substring(2);
        String off = dfx(command, negated);
        String on = dfx(command, option);
        assertThat(dfx(command, option, negated)).as("%s %s", option, negated).isEqualTo(off);
        assertThat(dfx(command, negated, option)).as("%s %s", negated, option).isEqualTo(on);
        if (initial instanceof Boolean b) {
            assertThat(dfx(command)).as("neither, default %s", b).isEqualTo(b ? on : off);
        }
        if (!command.equals("export")) {
            ScriptGoldenTest.assertSameText(command + " " + option + " " + negated, perf(command, option, negated),
                dfx(command, option, negated));
            ScriptGoldenTest.assertSameText(command + " " + negated + " " + option, perf(command, negated, option),
                dfx(command, negated, option));
        }
    }

    /** @return what dfx prints on standard output for the command with {@code options} (it must exit 0) */
    private static String dfx(String command, String... options) {
        List<String> args = new ArrayList<>(List.of(command, "-i", rec.data().toString()));
        if (!command.equals("dump")) {
            args.addAll(List.of("--buildid-dir", rec.cache().toString()));
        }
        if (command.equals("export")) {
            args.addAll(List.of("--format", "folded", "-o", "-"));
        }
        args.addAll(List.of(options));
        CliRun run = CliRun.dfx(args.toArray(String[]::new));
        assertThat(run.status()).as("%s: %s", args, run.err()).isZero();
        return run.out();
    }

    /** @return what perf prints on standard output: perf script, perf report --stdio (no tip), perf report -D */
    private static String perf(String command, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("--buildid-dir", rec.cache().toString()));
        args.addAll(switch (command) {
            case "script" -> List.of("script");
            case "report" -> List.of("report", "--stdio");
            default -> List.of("report", "-D");
        });
        args.addAll(List.of("-i", rec.data().toString()));
        args.addAll(List.of(options));
        String out = LiveRecording.perfOutput(dir, args.toArray(String[]::new));
        // perf's closing tip, which dfx does not print; -q prints none
        return command.equals("report") && out.contains("\n# (") ? ReportLiveTest.withoutTip(out) : out;
    }
}
