package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The perf.data options of {@code dfx script}, {@code report}, {@code dump} and {@code export} are refused for a run
 * directory in both forms of a negatable one: {@code --no-show-task-events} keeps the default, yet is as much a
 * perf.data option as {@code --show-task-events}, so both are one line naming the option as given, exit 1; the
 * options that apply to runs ({@code --ns}, {@code --json}, {@code -D}) are taken in both forms. On one run of
 * {@code dfx record -w flood} per class, its swimlane core tasks only (65,536 records): all subsystems at the full
 * level list 400,000 lines (85 MB) and dump 1.6 GB, more than the tests' in-memory output should hold.
 */
class RunDirectoryPerfOptionsTest {
    /** What each command's line says its run output is instead (the text after the run directory's name). */
    private static final Map<String, String> WHY = Map.of(
        "script", "its listing has every record with all its fields; --ns applies",
        "report", "its summary has no samples to sort; --json applies",
        "dump", "its dump is every chunk header and record as stored",
        "export", "its trace has no sampled addresses; --format and -o apply");

    /**
     * The negatable options that do not apply to a run directory, by command and long name (as --help lists them):
     * all but {@link #ACCEPTED}.
     */
    private static final List<String> REFUSED = List.of("script --header", "script --header-only",
        "script --show-info", "script --reltime", "script --deltatime", "script --show-task-events",
        "script --show-mmap-events", "script --show-switch-events", "script --show-lost-events",
        "script --show-namespace-events", "script --show-round-events", "script --demangle",
        "script --inline",
        "report --children", "report --show-nr-samples", "report --inverted", "report --group", "report --quiet",
        "report --header", "report --header-only", "report --show-info", "report --demangle", "report --inline",
        "dump --header", "dump --header-only", "dump --show-info",
        "export --demangle", "export --inline");

    /**
     * The negatable options a run directory takes too: script's --ns, and -f and report's --stdio, which have no effect
     * on either input (perf users give them out of habit).
     */
    private static final List<String> ACCEPTED = List.of("script --ns", "script --force", "report --force",
        "report --stdio", "dump --force");

    static Path run;

    @BeforeAll
    static void record(@TempDir Path dir) {
        run = OneRecordedRun.recorded(dir.resolve("run"), "-w", "flood", "-s", "swimlane", "--swimlane-level", "1");
    }

    /** The two lists hold every negatable option of the four commands. */
    @Test
    void theNegatableOptionsAreEitherRefusedOrAccepted() {
        assertThat(NegatableOptionsLiveTest.negatable().map(a -> a.get()[0] + " " + a.get()[1])
            .filter(o -> !ACCEPTED.contains(o))).containsExactlyInAnyOrderElementsOf(REFUSED);
    }

    /** -f and report's --stdio, in either form, change nothing in the output for a run directory. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"script --force", "report --force", "report --stdio", "dump --force"})
    void bothFormsOfAnOptionWithoutEffectAreTaken(String commandAndOption) {
        String command = commandAndOption.substring(0, commandAndOption.indexOf(' '));
        String option = commandAndOption.substring(command.length() + 1);
        CliRun plain = dfx(command);
        assertThat(plain.status()).as(plain.err()).isZero();
        for (String form : List.of(option, "--no-" + option.substring(2))) {
            CliRun r = dfx(command, form);
            assertThat(r.status()).as(form + ": " + r.err()).isZero();
            assertThat(r.err()).as(form).isEmpty();
            assertThat(r.out()).as(form).isEqualTo(plain.out());
        }
    }

    static Stream<String> refused() {
        return REFUSED.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void bothFormsOfANegatablePerfOptionAreRefusedNamingTheFormGiven(String commandAndOption) {
        String command = commandAndOption.substring(0, commandAndOption.indexOf(' '));
        String option = commandAndOption.substring(command.length() + 1);
        String negated = "--no-" + option.substring(2);
        CliRun no = dfx(command, negated);
        assertRefused(no, command, negated);
        CliRun yes = dfx(command, option);
        assertRefused(yes, command, option);
        assertThat(no.status()).isEqualTo(yes.status());
    }

    /** The first perf.data option on the command line is named, as spelt there, whatever its value. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "script --ns --show-task-events --no-show-task-events | --show-task-events",
        "script --no-show-task-events --show-task-events | --no-show-task-events",
        "script --no-ns --no-header --reltime | --no-header",
        "script -Fcomm | -F",
        "script --fields=comm | --fields",
        "script -F comm --no-demangle | -F",
        "script -I | -I",
        "script -f -I | -I",
        "script --comm x | --comm",
        "script --time 0, | --time",
        "report -nq | -n",
        "report -g graph | -g",
        "report --percent-limit 0 | --percent-limit",
        "report --no-group --json | --no-group",
        "report --json -S main | -S",
        "dump -D -f -I | -I",
        "dump --evlist | --evlist",
        "dump --no-force -D --header | --header",
        "export -o - --no-inline | --no-inline"})
    void theFirstPerfOptionIsNamedAsGiven(String options, String named) {
        List<String> args = new ArrayList<>(List.of(options.split(" ")));
        CliRun r = dfx(args.removeFirst(), args.toArray(String[]::new));
        assertRefused(r, options.substring(0, options.indexOf(' ')), named);
    }

    @Test
    void scriptTakesBothFormsOfNs() {
        CliRun plain = dfx("script");
        assertThat(plain.status()).as(plain.err()).isZero();
        // one line per core task, perf's microsecond times: '     0 [000] 16133.548677: swimlane:core-task: '
        assertThat(plain.out().lines()).hasSize(65_536)
            .allMatch(l -> l.matches(" +core-task +\\d+ \\[\\d{3}] +\\d+\\.\\d{6}: swimlane:core-task: .*"));
        CliRun no = dfx("script", "--no-ns");
        assertThat(no.status()).as(no.err()).isZero();
        assertThat(no.err()).isEmpty();
        assertThat(no.out()).isEqualTo(plain.out());
        CliRun ns = dfx("script", "--ns");
        assertThat(ns.status()).as(ns.err()).isZero();
        assertThat(ns.err()).isEmpty();
        // the same lines with the nanoseconds: the microseconds plain prints are the first six of nine digits
        List<String> plainLines = plain.out().lines().toList();
        List<String> nsLines = ns.out().lines().toList();
        assertThat(nsLines).hasSameSizeAs(plainLines);
        for (int i = 0; i < nsLines.size(); i++) {
            assertThat(nsLines.get(i)).as("line %d", i).matches(".* \\d+\\.\\d{9}: swimlane:.*");
            assertThat(nsLines.get(i).replaceFirst("(\\.\\d{6})\\d{3}: ", "$1: ")).isEqualTo(plainLines.get(i));
        }
    }

    @Test
    void reportTakesJsonAndDumpTakesD() throws Exception {
        CliRun text = dfx("report");
        assertThat(text.status()).as(text.err()).isZero();
        assertThat(text.out()).startsWith("dfx run " + run + ": flood, 65536 tasks, status ok\n");
        CliRun json = dfx("report", "--json");
        assertThat(json.status()).as(json.err()).isZero();
        JsonNode summary = new ObjectMapper().readTree(json.out());
        assertThat(summary.get("workload").asText()).isEqualTo("flood");
        assertThat(summary.get("tasks").asLong()).isEqualTo(65_536);
        CliRun dump = dfx("dump");
        assertThat(dump.status()).as(dump.err()).isZero();
        assertThat(dump.out()).startsWith("\n0@chunks/swimlane.dfx [0x");
        CliRun d = dfx("dump", "-D");
        assertThat(d.status()).as(d.err()).isZero();
        assertThat(d.out()).isEqualTo(dump.out());
    }

    /** @return {@code dfx COMMAND RUN OPTIONS} (export with {@code -o -} unless the options give -o) */
    private static CliRun dfx(String command, String... options) {
        List<String> args = new ArrayList<>(List.of(command, run.toString()));
        if (command.equals("export") && !Set.of(options).contains("-o")) {
            args.addAll(List.of("-o", "-"));
        }
        args.addAll(List.of(options));
        return CliRun.dfx(args.toArray(String[]::new));
    }

    private static void assertRefused(CliRun r, String command, String option) {
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("dfx: option " + option + ": for perf.data files; " + run + " is a run"
            + " directory (" + WHY.get(command) + ")\n");
    }
}
