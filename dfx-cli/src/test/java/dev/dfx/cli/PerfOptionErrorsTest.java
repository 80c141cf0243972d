package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad option values of the perf.data commands are refused before anything is printed, in one {@code dfx:} line:
 * a {@code --kallsyms} file that cannot be used (missing, a directory, an ELF file) is bad input, exit 1, as perf
 * refuses a missing one up front ("Invalid file"); a value its option cannot take is a usage error, exit 2, as
 * picocli's own value errors; a filter the recording cannot take (cpus it did not sample, percent times without
 * its first and last sample time) is bad input, exit 1.
 */
class PerfOptionErrorsTest {
    private static final Path DATA = Path.of("..", "testdata", "perf", "cpu-clock-g-F999.data");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} --kallsyms {1}")
    @CsvSource({"script, missing", "script, directory", "script, elf", "report, missing", "report, directory",
        "report, elf", "export, missing", "export, elf"})
    void aKallsymsFileThatCannotBeUsedIsRefusedBeforeAnyOutput(String command, String kind) throws Exception {
        Path k = switch (kind) {
            case "missing" -> dir.resolve("nosuch");
            case "directory" -> Files.createDirectory(dir.resolve("kdir"));
            default -> Files.write(dir.resolve("vmlinux"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        };
        List<String> args = new ArrayList<>(command.equals("export")
            ? List.of("export", DATA.toString(), "-f", "folded", "-o", "-") : List.of(command, "-i", DATA.toString()));
        args.addAll(List.of("--kallsyms", k.toString()));
        CliRun run = CliRun.dfx(args.toArray(String[]::new));
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("dfx: --kallsyms " + k).hasLineCount(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "report --sort nosuch | report: option --sort: unknown key 'nosuch'",
        "report -F overhead,nosuch | report: option -F: unknown key 'nosuch'",
        "report -g fractal | report: option -g: 'fractal' is the call-graph mode fractal, which dfx does not print",
        "report --percent-limit x | report: Invalid value for option '--percent-limit': 'x' is not a double",
        "report -S a,a | report: Invalid value for option '--symbols': 'a,a': symbol 'a' is named twice",
        "report --time 1.5 | report: Invalid value for option '--time': '1.5' is not a time range",
        "script --time 2,1 | script: Invalid value for option '--time': '2,1' is not a time range: the start 2 s is after the stop 1 s;",
        "script --time 150% | script: Invalid value for option '--time': '150%' is not a time range",
        "script --time -1,5 | script: Invalid value for option '--time': '-1,5' is not a time range: the start -1 s is"
            + " negative; expected START,STOP of 0 s or later with START <= STOP",
        "script --cpu 1-0 | script: Invalid value for option '--cpu': '1-0' is not a cpu list",
        "script -C x | script: Invalid value for option '--cpu': 'x' is not a cpu list",
        "script --pid 1x | script: Invalid value for option '--pid': '1x' is not a pid list",
        "script --tid a | script: Invalid value for option '--tid': 'a' is not a tid list",
        "report --tid -5 | report: Invalid value for option '--tid': '-5' is not a tid list; expected numbers 0 or"
            + " above separated by commas",
        "script --pid 1,-2 | script: Invalid value for option '--pid': '1,-2' is not a pid list; expected numbers 0"
            + " or above separated by commas",
        "script --comms a,b,a | script: Invalid value for option '--comms': 'a,b,a': comm 'a' is named twice",
        "script -F comm,nosuch | script: -F comm,nosuch: invalid field requested: 'nosuch'",
        "script --reltime --deltatime | script: options --reltime and --deltatime cannot be combined",
        // perf's booleans take no value ("option `ns' takes no value", exit 129), their --no- forms neither
        "script --ns=false | script: option '--ns' should be specified without 'false' parameter",
        "script --no-show-task-events=true | script: option '--show-task-events' should be specified without 'true'"
            + " parameter",
        "report --children=true | report: option '--children' should be specified without 'true' parameter",
        "report -n=1 | report: option '--show-nr-samples' should be specified without '1' parameter",
        "export -f nosuch | export: Invalid value for option '--format': 'nosuch' is not a format"})
    void anOptionValueTheOptionCannotTakeIsAUsageError(String options, String message) {
        List<String> args = new ArrayList<>(List.of(options.split(" ")));
        args.addAll(1, args.getFirst().equals("export") ? List.of(DATA.toString(), "-o", "-")
            : List.of("-i", DATA.toString()));
        CliRun run = CliRun.dfx(args.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("dfx: " + message).endsWith(" (see 'dfx " + args.getFirst() + " --help')\n")
            .hasLineCount(1);
    }

    @ParameterizedTest(name = "report --tid -5 of {0}")
    @CsvSource({"a missing file", "a directory"})
    void aFilterValueThatCanNeverBeReadIsAUsageErrorBeforeTheInputIsLookedAt(String input) throws Exception {
        Path in = input.equals("a directory") ? Files.createDirectory(dir.resolve("run")) : dir.resolve("nosuch.data");
        CliRun run = CliRun.dfx("report", "--tid", "-5", in.toString());
        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).startsWith("dfx: report: Invalid value for option '--tid': '-5' is not a tid list")
            .hasLineCount(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--cpu 4095 | option --cpu: cpu 4095 is past the 2048 cpus perf reads",
        "--time 10%/2 | option --time: ",
        "--reltime --time 0.1,0.2 | which --reltime counts the ranges from"})
    void aFilterTheRecordingCannotTakeIsBadInput(String options, String message) throws Exception {
        // the fixture was recorded without --sample-cpu and (pipe mode) has no SAMPLE_TIME feature
        Path data = Path.of("..", "testdata", "perf", "sched-proc.pipe.data");
        List<String> args = new ArrayList<>(List.of("script", "-i", data.toString()));
        args.addAll(List.of(options.split(" ")));
        CliRun run = CliRun.dfx(args.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("dfx: ").contains(message.strip()).hasLineCount(1);
    }
}
