package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.write.PerfDataWriter;
import dev.dfx.perf.write.SchedTracepoints;
import dev.dfx.perf.write.WriterEvent;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dfx export} of a perf.data file with a sample whose u64 time is at or past 2^63 ns (a damaged record: a
 * recording's clock is nowhere near 292 years) is bad input, as {@code dfx script} and {@code dfx dump} treat damage:
 * one {@code dfx:} line naming the file, the record's byte offset and the time, exit status 1, and an output file
 * that already existed is left as it was. The file is written by {@link PerfDataWriter} with the time the damaged
 * recording of a user's report held; the expected offset is found independently, from where the time's eight bytes
 * lie in the file. A time of 2^64 - 1 (perf's "no time") and times spread past what an HTML page holds are the
 * neighbouring cases.
 */
class ExportHostileTimeTest {
    /** The time of the damaged record, as a signed long (u64 9223406311055073816). */
    private static final long HOSTILE = -9223337762654477800L;
    /** The time's offset from a sample's first byte: header (8), IDENTIFIER, IP, TID (8 each), then TIME. */
    private static final int TIME_IN_SAMPLE = 32;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"switch,chrome", "switch,perfetto", "switch,html", "instant,chrome", "instant,perfetto",
        "instant,html"})
    void aTimePast2To63IsOneErrorLineWithTheRecordsOffset(String kind, String format) throws IOException {
        Path data = dir.resolve("hostile.data");
        String event = write(data, kind.equals("switch"));
        // the file is otherwise whole: dfx script prints every sample, the damaged time as perf prints it
        CliRun script = CliRun.dfx("script", "-F", "time", "-i", data.toString());
        assertThat(script.status()).as(script.err()).isZero();
        Path out = Files.writeString(dir.resolve("out." + format), "kept\n");
        CliRun r = export(data, format, out);
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        long at = offsetOf(Files.readAllBytes(data), HOSTILE) - TIME_IN_SAMPLE;
        assertThat(r.err()).matches("dfx: " + Pattern.quote(data + ": byte offset " + at + ": sample of '" + event
            + "' at " + Long.toUnsignedString(HOSTILE) + " ns") + "[^\n]*\n");
        assertThat(Files.readString(out)).isEqualTo("kept\n");
    }

    /**
     * Folded stacks and speedscope's sampled profiles hold no times (as {@code perf report}, which reads the same file
     * without a word): the damaged sample is counted like the others.
     */
    @ParameterizedTest
    @CsvSource({"switch,folded", "switch,speedscope", "instant,folded", "instant,speedscope"})
    void profilesWithoutTimesCountTheSample(String kind, String format) throws IOException {
        Path data = dir.resolve("hostile.data");
        write(data, kind.equals("switch"));
        Path out = dir.resolve("out." + format);
        CliRun r = export(data, format, out);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("internal error");
        assertThat(Files.size(out)).isPositive();
    }

    private static CliRun export(Path data, String format, Path out) {
        return CliRun.dfx("export", "-i", data.toString(), "--format", format, "-k", "/dev/null", "-o",
            out.toString());
    }

    /**
     * A u64 time of 2^64 - 1 is what perf reads as "no time" ({@code ordered_events__queue} refuses it and the
     * sample is delivered out of time order; perf script prints it as 18446744073.709551, its seconds and
     * microseconds): a trace leaves it out, as one that was recorded without times, but its event records times, so
     * the line names it as a damaged record, by its byte offset; the rest of the trace is written (exit 1).
     */
    @ParameterizedTest
    @CsvSource({"switch,chrome", "switch,perfetto", "switch,html", "instant,chrome", "instant,perfetto",
        "instant,html"})
    void aTimeOf2To64Minus1IsLeftOutInOneLineNamingTheRecordsOffset(String kind, String format) throws IOException {
        Path data = dir.resolve("all-ones.data");
        String event = write(data, kind.equals("switch"), -1L);
        CliRun script = CliRun.dfx("script", "-F", "time", "-i", data.toString());
        assertThat(script.status()).as(script.err()).isZero();
        assertThat(script.out().lines().map(String::strip)).contains("18446744073.709551:");
        Path out = dir.resolve("out." + format);
        CliRun r = export(data, format, out);
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        long at = offsetOf(Files.readAllBytes(data), -1L) - TIME_IN_SAMPLE;
        assertThat(r.err()).isEqualTo("dfx: " + data + ": byte offset " + at + ": sample of '" + event + "' at"
            + " 18446744073709551615 ns (2^64 - 1), which perf reads as no time: its event records times, so the"
            + " record is damaged; left out of the trace\n");
        if (format.equals("chrome")) {
            // the page fault at 1500 ns is the one instant left: the other samples are switches, drawn as slices
            assertThat(Files.readString(out).split("\"ph\":\"i\"", -1)).hasSize(2);
        } else {
            assertThat(Files.size(out)).isPositive();
        }
    }

    /**
     * An HTML page's numbers are doubles, exact to 2^53: a page can hold times that spread over at most 2^53 ns
     * (104 days), and a recording's samples spread wider only by a damaged time. The first sample is the switch at
     * 1000 ns (the COMM at 500 ns draws nothing), so a sample at 1000 + 2^53 ns is drawn, and one at 1000 + 2^53 + 1
     * ns is one line naming both samples' byte offsets (exit 1, an output that existed kept as it was); a Chrome trace
     * holds it.
     */
    @ParameterizedTest
    @CsvSource({"switch,0", "switch,1", "instant,0", "instant,1"})
    void anHtmlPageRefusesTimesSpreadPast2To53NsNamingTheRecords(String kind, long past) throws IOException {
        Path data = dir.resolve("wide.data");
        long far = 1000 + (1L << 53) + past;
        String event = write(data, kind.equals("switch"), far);
        Path page = Files.writeString(dir.resolve("out.html"), "kept\n");
        CliRun r = export(data, "html", page);
        if (past == 0) {
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(Files.readString(page)).startsWith("<!DOCTYPE html>");
            return;
        }
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        byte[] file = Files.readAllBytes(data);
        long at = offsetOf(file, far) - TIME_IN_SAMPLE;
        long first = offsetOf(file, 1000) - TIME_IN_SAMPLE;
        assertThat(r.err()).isEqualTo("dfx: " + data + ": byte offset " + at + ": sample of '" + event + "' at "
            + far + " ns: the trace's times then spread from 1000 ns (the first sample, byte offset " + first + ") to "
            + far + " ns, 9007199254740993 ns, past the 9007199254740992 ns this format's numbers hold exactly (a"
            + " damaged time); the Chrome JSON and Perfetto formats hold any span\n");
        assertThat(Files.readString(page)).isEqualTo("kept\n");
        CliRun chrome = export(data, "chrome", dir.resolve("out.json"));
        assertThat(chrome.status()).as(chrome.err()).isZero();
    }

    /** @return the name of the event whose sample has the hostile time, between samples at ordinary times */
    private static String write(Path file, boolean switches) throws IOException {
        return write(file, switches, HOSTILE);
    }

    /**
     * @param time the time of the sample between the ordinary ones (after a COMM at 500 ns, samples at 1000 and 1500
     *             ns; before one at 3000 ns)
     * @return the name of its event
     */
    private static String write(Path file, boolean switches, long time) throws IOException {
        PerfDataWriter w = new PerfDataWriter(1);
        WriterEvent sw = w.addTracepoint(SchedTracepoints.SWITCH);
        WriterEvent faults = w.addEvent("page-faults", PerfType.SOFTWARE, 2, 1,
            SampleType.IDENTIFIER | SampleType.IP | SampleType.TID | SampleType.TIME);
        w.comm(100, 100, "a", 0, 500);
        w.schedSwitch(sw, 0, 1000, "swapper/0", 0, 120, 0, "a", 100, 120);
        w.sample(faults, 0, 100, 100, 1500, 0x1000, new byte[0]);
        if (switches) {
            w.schedSwitch(sw, 0, time, "a", 100, 120, 1, "swapper/0", 0, 120);
        } else {
            w.sample(faults, 0, 100, 100, time, 0x1000, new byte[0]);
        }
        w.schedSwitch(sw, 0, 3000, "a", 100, 120, 1, "swapper/0", 0, 120);
        w.write(file);
        return switches ? SchedTracepoints.SWITCH.fullName() : "page-faults";
    }

    /** @return where {@code value}'s eight little-endian bytes lie in {@code file} (there must be one such place) */
    private static long offsetOf(byte[] file, long value) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        long at = -1;
        for (int i = 0; i + 8 <= file.length; i++) {
            if (b.getLong(i) == value) {
                assertThat(at).as("the time is in the file once").isEqualTo(-1);
                at = i;
            }
        }
        assertThat(at).as("the time is in the file").isNotNegative();
        return at;
    }
}
