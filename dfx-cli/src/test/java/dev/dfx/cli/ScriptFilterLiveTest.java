package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dfx script} with perf's sample filters ({@code --cpu}, {@code --time} in its absolute, multi-range and
 * percent forms, {@code --pid}, {@code --tid}, {@code --comms}) prints byte for byte what {@code perf script}
 * prints with them, on a fresh recording of renamer.c made here with the real perf: cpu-clock with callchains and
 * the cpu sampled, the program run once on cpu 0 and once on cpu 1 (where the machine has two), with the task and
 * mmap side-band lines (which perf filters by cpu only) and without. The time ranges are taken from perf's own
 * listing of the recording's sample times; the pid and tid from its first and last samples.
 */
class ScriptFilterLiveTest {
    @TempDir
    static Path dir;

    private static Path data;
    private static Path cache;
    private static List<String> times;
    private static String firstPid;
    private static String lastTid;

    @BeforeAll
    static void record() throws Exception {
        LiveRecording.record(dir, "warm.data", "-e", "cpu-clock", "-c", "1000000"); // builds renamer
        String exe = dir.resolve("renamer").toString() + " " + LiveRecording.SPIN;
        boolean twoCpus = Runtime.getRuntime().availableProcessors() >= 2;
        String work = twoCpus ? "taskset -c 0 " + exe + "; taskset -c 1 " + exe : exe;
        data = dir.resolve("cpu.data");
        int status = LiveRecording.run(List.of(LiveRecording.perf(), "record", "-N", "-q", "-o", data.toString(), "-e",
            "cpu-clock", "-c", "200000", "-g", "--sample-cpu", "--", "sh", "-c", work), null);
        assumeTrue(status == 0 && Files.size(data) > 0, "perf record failed here");
        cache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        String listing = LiveRecording.perfOutput(dir, "script", "-i", data.toString(), "-F", "pid,tid,time", "--ns");
        List<String[]> rows = listing.lines().map(l -> l.trim().replace(":", "").split("[ /]+")).toList();
        assertThat(rows).hasSizeGreaterThan(30);
        times = rows.stream().map(r -> r[2]).toList();
        firstPid = rows.getFirst()[0];
        lastTid = rows.getLast()[1];
    }

    static Stream<Arguments> filters() {
        List<Arguments> out = new ArrayList<>();
        for (String sideBand : List.of("", "--show-task-events --show-mmap-events")) {
            for (String f : List.of("--cpu 0", "-C 1", "--cpu 0-1", "--cpu 1,0", "--time T1,T2", "--time T1,",
                "--time ,T1", "--time T1,T2_T3,T4", "--time 10%/2", "--time 0%-10%,30%-40%", "--time 50%",
                "--time 10%/1,10%/3", "--pid PID", "--tid TID", "--comms true", "--comm renamer,true",
                "--pid PID --comms true --time 50%")) {
                out.add(Arguments.of(f, sideBand));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("filters")
    void dfxScriptFiltersAsPerfScript(String filter, String sideBand) throws Exception {
        List<String> opts = new ArrayList<>();
        for (String o : filter.split(" ")) {
            // T1..T4: sample times a fifth, two fifths, three fifths and four fifths into the recording
            for (int i = 1; i <= 4; i++) {
                o = o.replace("T" + i, times.get(times.size() * i / 5));
            }
            opts.add(o.replace("_", " ").replace("PID", firstPid).replace("TID", lastTid));
        }
        if (!sideBand.isEmpty()) {
            opts.addAll(Arrays.asList(sideBand.split(" ")));
        }
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", cache.toString(), "script", "-i",
            data.toString()));
        perf.addAll(opts);
        List<String> dfx = new ArrayList<>(List.of("script", "-i", data.toString(), "--buildid-dir",
            cache.toString()));
        dfx.addAll(opts);
        String expected = LiveRecording.perfOutput(dir, perf.toArray(String[]::new));
        CliRun run = CliRun.dfx(dfx.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        ScriptGoldenTest.assertSameText("script " + opts, expected, run.out());
    }
}
