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
 * {@code dfx report} of tracepoint recordings prints byte for byte what {@code perf report --stdio} (6.1) prints, on
 * fresh recordings of renamer.c made here with the real perf: tracepoints only (sorted by their trace output by
 * default, {@code # Overhead  Trace output}; renamed threads give {@code task:task_rename} texts with non-ASCII
 * names, and an event with a single line shows perf's text cut to the header's width), the same with callchains
 * (children), a group of tracepoints (its events apart), tracepoints next to a software event and system-wide with
 * perf's dummy event
 * (both sorted by {@code comm,dso,sym} by default: not every event is a tracepoint), and tracepoints in pipe mode
 * (perf settles its default keys before the stream's events arrive). Each with {@code --sort} and {@code -F} naming
 * {@code trace} first, last and in the middle, {@code --sort +KEY}, {@code -n}, {@code --percent-limit}, and
 * {@code --group --no-group} (the last one counts). Symbols as found here, both sides with an
 * empty build-id cache; perf's closing tip is left out of the comparison.
 */
class ReportTraceLiveTest {
    @TempDir
    static Path dir;

    private static Path cache;

    /** The tracepoints: forks, execs, exits and renames of renamer.c's processes and threads. */
    private static final String TRACEPOINTS = "sched:sched_process_fork,sched:sched_process_exec,"
        + "sched:sched_process_exit,task:task_rename";

    @BeforeAll
    static void record() throws Exception {
        LiveRecording.record(dir, "tp.data", "-e", TRACEPOINTS + ",sched:sched_switch");
        LiveRecording.record(dir, "tp-g.data", "-e", TRACEPOINTS, "-g");
        LiveRecording.record(dir, "group.data", "-e", "{sched:sched_process_exec,sched:sched_process_exit}");
        LiveRecording.record(dir, "mixed.data", "-e", "task-clock,task:task_rename");
        LiveRecording.record(dir, "wide.data", "-a", "-e", "task:task_rename");
        int status = LiveRecording.run(List.of(LiveRecording.perf(), "record", "-N", "-q", "-o", "-", "-e",
            TRACEPOINTS, "--", dir.resolve("renamer").toString(), LiveRecording.SPIN),
            dir.resolve("pipe.data").toFile());
        assertThat(status).as("perf record -o -").isZero();
        cache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
    }

    static Stream<Arguments> reports() {
        List<Arguments> out = new ArrayList<>();
        for (String o : new String[] {"", "-n", "--sort trace", "--sort comm,trace", "--sort trace,pid",
            "--sort pid,trace,cpu", "--sort +pid", "-F overhead,sample,trace", "-F trace,overhead",
            "--percent-limit 10", "-q", "--group --no-group"}) {
            out.add(Arguments.of("tp.data", o));
        }
        // a group shown as one table with the trace key: perf 6.1 corrupts its heap and aborts on such recordings,
        // printing nothing (docs/perf-data.md); its events shown apart are compared
        for (String o : new String[] {"--no-group", "--no-group -n --sort comm,trace", "--group --no-group"}) {
            out.add(Arguments.of("group.data", o));
        }
        for (String o : new String[] {"", "--no-children", "-g none", "--sort trace,sym", "--sort sym,trace",
            "--no-children --sort dso,trace", "--percent-limit 5"}) {
            out.add(Arguments.of("tp-g.data", o));
        }
        for (String o : new String[] {"", "--sort trace", "--sort comm,trace", "--sort +trace"}) {
            out.add(Arguments.of("mixed.data", o));
            out.add(Arguments.of("wide.data", o));
            out.add(Arguments.of("pipe.data", o));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("reports")
    void dfxReportIsPerfReport(String file, String options) throws Exception {
        LiveReport report = LiveReport.of(dir, cache, file, options);
        if (options.isEmpty()) {
            // the default keys: the trace output where every event is a tracepoint (a file, not a stream)
            boolean tracepoints = file.equals("tp.data") || file.equals("tp-g.data");
            assertThat(report.perf().contains("Trace output")).as("trace is the default key").isEqualTo(tracepoints);
        }
        report.assertSame(file + " report " + options);
    }
}
