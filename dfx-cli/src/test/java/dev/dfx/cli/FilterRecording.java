package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A fresh recording of renamer.c for the sample-filter comparisons: cpu-clock with callchains and the cpu sampled,
 * the program run once on cpu 0 and once on cpu 1 (where the machine has two), and what perf's own listing says of
 * it: the sample times, the first sample's pid and the last sample's tid. Filter options are written with
 * placeholders that {@link #options} fills from that listing: {@code T1}..{@code T4} (sample times a fifth, two
 * fifths, three fifths and four fifths into the recording), {@code PID}, {@code TID}, {@code _} for a space inside
 * one argument.
 *
 * @param data  the recording
 * @param cache an empty build-id cache for both tools
 * @param times the sample times perf lists, seconds with nine decimals
 * @param pid   the first sample's process id
 * @param tid   the last sample's thread id
 */
record FilterRecording(Path data, Path cache, List<String> times, String pid, String tid) {
    /** Records into {@code dir} (the calling test is skipped where perf cannot record). */
    static FilterRecording make(Path dir) throws Exception {
        LiveRecording.record(dir, "warm.data", "-e", "cpu-clock", "-c", "1000000"); // builds renamer
        String exe = dir.resolve("renamer") + " " + LiveRecording.SPIN;
        boolean twoCpus = Runtime.getRuntime().availableProcessors() >= 2;
        String work = twoCpus ? "taskset -c 0 " + exe + "; taskset -c 1 " + exe : exe;
        Path data = dir.resolve("cpu.data");
        int status = LiveRecording.run(List.of(LiveRecording.perf(), "record", "-N", "-q", "-o", data.toString(), "-e",
            "cpu-clock", "-c", "200000", "-g", "--sample-cpu", "--", "sh", "-c", work), null);
        assumeTrue(status == 0 && Files.size(data) > 0, "perf record failed here");
        Path cache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        String listing = LiveRecording.perfOutput(dir, "script", "-i", data.toString(), "-F", "pid,tid,time", "--ns");
        List<String[]> rows = listing.lines().map(l -> l.trim().replace(":", "").split("[ /]+")).toList();
        assertThat(rows).hasSizeGreaterThan(30);
        return new FilterRecording(data, cache, rows.stream().map(r -> r[2]).toList(), rows.getFirst()[0],
            rows.getLast()[1]);
    }

    /** @return {@code options} split into arguments, the placeholders filled in */
    List<String> options(String options) {
        List<String> out = new ArrayList<>();
        for (String o : options.split(" ")) {
            for (int i = 1; i <= 4; i++) {
                o = o.replace("T" + i, times.get(times.size() * i / 5));
            }
            out.add(o.replace("_", " ").replace("PID", pid).replace("TID", tid));
        }
        return out;
    }
}
