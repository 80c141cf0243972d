package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dfx script} with perf's sample filters ({@code --cpu}, {@code --time} in its absolute, multi-range and
 * percent forms, {@code --pid}, {@code --tid}, {@code --comms}) and the time columns of {@code --reltime} (whose
 * {@code --time} ranges perf moves by the first sample time, open sides and percent forms too) and
 * {@code --deltatime} prints byte for byte what {@code perf script} prints with them (an option given twice counting
 * with its last value, as perf's), on a fresh recording of renamer.c made here with the real perf: cpu-clock with
 * callchains and the cpu sampled, the program run once on cpu 0 and once on cpu 1 (where the machine has two), with
 * the task and mmap side-band lines (which perf filters by cpu only) and without ({@link FilterRecording}).
 */
class ScriptFilterLiveTest extends FilterRecordingTest {
    static Stream<Arguments> filters() {
        List<Arguments> out = new ArrayList<>();
        for (String sideBand : List.of("", "--show-task-events --show-mmap-events")) {
            for (String f : List.of("--cpu 0", "-C 1", "--cpu 0-1", "--cpu 1,0", "--time T1,T2", "--time T1,",
                "--time ,T1", "--time T1,T2_T3,T4", "--time 10%/2", "--time 0%-10%,30%-40%", "--time 50%",
                "--time 10%/1,10%/3", "--pid PID", "--tid TID", "--comms true", "--comm renamer,true",
                "--pid PID --comms true --time 50%", "--reltime", "--deltatime", "--reltime --ns",
                "--deltatime --ns --cpu 1", "--reltime --time 0.001,0.2", "--reltime --time ,0.05",
                "--reltime --time 0.001,", "--reltime --time 10%/2", "--deltatime --time T1,T2",
                "--time T1,T2 --time T3,T4", "--cpu 1 --cpu 0", "--pid PID --pid 1")) {
                out.add(Arguments.of(f, sideBand));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("filters")
    void dfxScriptFiltersAsPerfScript(String filter, String sideBand) throws Exception {
        List<String> opts = rec.options(filter);
        if (!sideBand.isEmpty()) {
            opts.addAll(Arrays.asList(sideBand.split(" ")));
        }
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", rec.cache().toString(), "script", "-i",
            rec.data().toString()));
        perf.addAll(opts);
        List<String> dfx = new ArrayList<>(List.of("script", "-i", rec.data().toString(), "--buildid-dir",
            rec.cache().toString()));
        dfx.addAll(opts);
        String expected = LiveRecording.perfOutput(dir, perf.toArray(String[]::new));
        CliRun run = CliRun.dfx(dfx.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        ScriptGoldenTest.assertSameText("script " + opts, expected, run.out());
    }
}
