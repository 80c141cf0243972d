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
 * lie in the file.
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

    /** @return the name of the event whose sample has the hostile time, between samples at ordinary times */
    private static String write(Path file, boolean switches) throws IOException {
        PerfDataWriter w = new PerfDataWriter(1);
        WriterEvent sw = w.addTracepoint(SchedTracepoints.SWITCH);
        WriterEvent faults = w.addEvent("page-faults", PerfType.SOFTWARE, 2, 1,
            SampleType.IDENTIFIER | SampleType.IP | SampleType.TID | SampleType.TIME);
        w.comm(100, 100, "a", 0, 500);
        w.schedSwitch(sw, 0, 1000, "swapper/0", 0, 120, 0, "a", 100, 120);
        w.sample(faults, 0, 100, 100, 1500, 0x1000, new byte[0]);
        if (switches) {
            w.schedSwitch(sw, 0, HOSTILE, "a", 100, 120, 1, "swapper/0", 0, 120);
        } else {
            w.sample(faults, 0, 100, 100, HOSTILE, 0x1000, new byte[0]);
        }
        w.schedSwitch(sw, 0, 3000, "a", 100, 120, 1, "swapper/0", 0, 120);
        w.write(file);
        return switches ? SchedTracepoints.SWITCH.fullName() : "page-faults";
    }

    /** @return where {@code value}'s eight little-endian bytes lie in {@code file} (there is one such place) */
    private static long offsetOf(byte[] file, long value) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 8 <= file.length; i++) {
            if (b.getLong(i) == value) {
                return i;
            }
        }
        throw new AssertionError("the time is not in the file");
    }
}
