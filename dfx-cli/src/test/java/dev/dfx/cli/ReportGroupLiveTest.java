package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dfx report} of recordings with event groups prints byte for byte what {@code perf report --stdio} (6.1)
 * prints, on fresh recordings of renamer.c made here with the real perf: an anonymous two-event group (with and
 * without callchains), a named three-event group whose third event (page faults) hits lines the others do not
 * (so the leader gets lines of its own without samples and members get zero-filled columns), a group read with
 * {@code :S} (one sample carries every member's count), a group in pipe mode and two events recorded apart (which {@code --group} and
 * {@code --no-group} make one forced group). Each with the group's one table (an overhead column per event,
 * {@code # Samples: N of events 'anon group { ... }'}) and with {@code -n}, {@code --no-children}, {@code -g none},
 * {@code --sort}, {@code --percent-limit} and {@code --no-group}. Symbols as found here, both sides with an empty
 * build-id cache; perf's closing tip is left out of the comparison.
 */
class ReportGroupLiveTest {
    @TempDir
    static Path dir;

    private static Path cache;

    @BeforeAll
    static void record() throws Exception {
        LiveRecording.record(dir, "anon.data", "-e", "{cpu-clock,task-clock}");
        LiveRecording.record(dir, "anon-g.data", "-e", "{cpu-clock,task-clock}", "-g");
        LiveRecording.record(dir, "named.data", "-e", "grp{cpu-clock,task-clock,page-faults}");
        LiveRecording.record(dir, "read.data", "-e", "{cpu-clock,task-clock}:S");
        LiveRecording.record(dir, "apart.data", "-e", "cpu-clock,task-clock");
        // pipe mode: the groups arrive in a HEADER_FEATURE record of GROUP_DESC
        int status = LiveRecording.run(List.of(LiveRecording.perf(), "record", "-N", "-q", "-o", "-", "-e",
            "{cpu-clock,task-clock}", "--", dir.resolve("renamer").toString(), LiveRecording.SPIN),
            dir.resolve("pipe.data").toFile());
        assertThat(status).as("perf record -o -").isZero();
        cache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
    }

    static Stream<Arguments> reports() {
        List<Arguments> out = new ArrayList<>();
        String[] options = {"", "-n", "--no-group", "--group", "--sort comm,dso", "--sort sym -n", "--percent-limit 3",
            "-F overhead,sample,period,sym", "--no-group -n", "-F overhead_children,overhead,sym"};
        for (String file : List.of("anon.data", "named.data", "read.data")) {
            for (String o : options) {
                out.add(Arguments.of(file, o));
            }
        }
        for (String o : new String[] {"", "-n", "--no-children", "-g none", "--no-children -n", "--no-group",
            "--sort comm,dso", "-g none --sort dso,sym", "--percent-limit 5", "-F overhead_children,overhead,sym"}) {
            out.add(Arguments.of("anon-g.data", o));
        }
        for (String o : new String[] {"", "--group", "--no-group", "--group -n"}) {
            out.add(Arguments.of("apart.data", o));
        }
        out.add(Arguments.of("pipe.data", ""));
        out.add(Arguments.of("pipe.data", "-n --no-group"));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("reports")
    void dfxReportIsPerfReport(String file, String options) throws Exception {
        LiveReport report = LiveReport.of(dir, cache, file, options);
        if (!file.equals("apart.data") || !options.isEmpty()) {
            // a group's table, or its leader's section with --no-group, names the events of the group
            assertThat(report.perf()).contains("of events '");
        }
        report.assertSame(file + " report " + options);
    }
}
