package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.write.PerfDataWriter;
import dev.dfx.perf.write.WriterEvent;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What perf says after reading a recording whose kernel lost data (PERF_RECORD_LOST chunks, PERF_RECORD_LOST_SAMPLES
 * above 5 %), said by every dfx command that reads the records. The right numbers are perf's own: the stderr of
 * {@code perf script -i sched-lost-m1-z.data}, committed with the fixture (a recording with a one-page ring buffer,
 * {@code -m 1}, that lost both).
 */
class LossWarningsTest {
    private static final Path DATA = Fixtures.perf("sched-lost-m1-z.data");
    private static final Pattern CHUNKS = Pattern.compile("Processed (\\d+) events and lost (\\d+) chunks!");
    private static final Pattern SAMPLES = Pattern.compile("Processed (\\d+) samples and lost (\\d+\\.\\d\\d)%!");

    /** @return the lines dfx prints for what perf's stderr golden says, in perf's order */
    private static List<String> expected(String name) throws IOException {
        String perf = Files.readString(Fixtures.perf("sched-lost-m1-z.script-stderr.txt"), StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        Matcher c = CHUNKS.matcher(perf);
        assertThat(c.find()).as("perf's golden warns of lost chunks").isTrue();
        lines.add("dfx: warning: " + name + ": processed " + c.group(1) + " events and lost " + c.group(2)
            + " chunks! Check IO/CPU overload!");
        Matcher s = SAMPLES.matcher(perf);
        assertThat(s.find()).as("perf's golden warns of lost samples").isTrue();
        lines.add("dfx: warning: " + name + ": processed " + s.group(1) + " samples and lost " + s.group(2) + "%!");
        return lines;
    }

    @ParameterizedTest(name = "dfx {0}")
    @ValueSource(strings = {"script", "dump", "report"})
    void perfDataCommandsWarnAsPerfDoes(String command) throws IOException {
        CliRun r = CliRun.dfx(command, "-i", DATA.toString());
        assertThat(r.status()).as(r.err()).isZero();
        // report also resolves kernel symbols: on a machine running another kernel than the recording's it says it
        // found none (the fixture has no kernel build id), a line that depends on the machine, not on the losses
        List<String> err = r.err().lines()
                .filter(l -> !(command.equals("report") && l.startsWith("dfx report: no kernel symbols for kernel ")))
                .toList();
        assertThat(err).isEqualTo(expected(DATA.toString()));
        if (command.equals("script")) {
            assertThat(r.out()).isEqualTo(Files.readString(Fixtures.perf("sched-lost-m1-z.script.txt"),
                StandardCharsets.UTF_8));
        }
    }

    @ParameterizedTest(name = "dfx export --format {0}")
    @ValueSource(strings = {"chrome", "folded"})
    void exportWarnsToo(String format, @TempDir Path dir) throws IOException {
        CliRun r = CliRun.dfx("export", DATA.toString(), "--format", format, "-o", dir.resolve("out").toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err().lines().filter(l -> l.startsWith("dfx: warning: ")).toList())
            .isEqualTo(expected(DATA.toString()));
    }

    @ParameterizedTest(name = "no loss, no warning: {0}")
    @ValueSource(strings = {"irq-a.data", "compressed-z.data", "sched-proc.pipe.data"})
    void recordingsThatLostNothingGetNoWarning(String fixture) {
        CliRun r = CliRun.dfx("script", "-i", Fixtures.perf(fixture).toString());
        assertThat(r.status()).isZero();
        assertThat(r.err()).doesNotContain("lost");
    }

    /**
     * A record older than one already delivered in time order is counted, as perf counts it ({@code
     * nr_unordered_events}) and says after reading: samples at 5 and 3 ns, a round (flushes nothing, limit 5), 4
     * and 9 ns, a round (flushes 3, 4, 5), then 1 ns (late) and 6 ns (not): one, worked by hand from
     * {@code ordered-events.c}; where perf is installed, its own count on the same file.
     */
    @Test
    void recordsThatComeAfterTheirTimeWasDeliveredAreCounted(@TempDir Path dir) throws Exception {
        PerfDataWriter w = new PerfDataWriter(1);
        WriterEvent e = w.addEvent("cpu-clock", PerfType.SOFTWARE, 0, 1000,
            SampleType.IDENTIFIER | SampleType.IP | SampleType.TID | SampleType.TIME | SampleType.CPU);
        long[][] rounds = {{5, 3}, {4, 9}, {1, 6}};
        for (long[] round : rounds) {
            for (long t : round) {
                w.sample(e, 0, 7, 7, t, 0xffffffff81000000L + t, new byte[0]);
            }
            w.finishedRound();
        }
        Path data = dir.resolve("late.data");
        w.write(data);
        String line = "dfx: warning: " + data + ": 1 out of order events recorded.";
        for (String command : List.of("script", "report", "dump")) {
            CliRun r = CliRun.dfx(command, "-i", data.toString());
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(r.err().lines().filter(l -> l.startsWith("dfx: warning: ")).toList()).as(command)
                .containsExactly(line);
        }
        Path perf = Path.of("/usr/bin/perf");
        if (Files.isExecutable(perf)) {
            Process p = new ProcessBuilder(perf.toString(), "script", "-i", data.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).isZero();
            assertThat(err).contains("1 out of order events recorded.");
        }
    }
}
