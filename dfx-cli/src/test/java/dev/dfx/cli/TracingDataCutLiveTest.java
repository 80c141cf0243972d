package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fresh sched recordings made here with the real perf 6.1, cut inside their TRACING_DATA feature section (the
 * first section after the data, so the cut takes every later feature with it), as a recording whose writer died
 * while writing its header. Every tracepoint format that came whole before the cut is kept: where the cut takes
 * only parts after the formats (the saved cmdlines, the printk formats, kallsyms), {@code dfx script} prints exactly
 * what {@code perf script} prints for the whole recording, and for the cut copy where perf reads it (a cut that takes
 * only a count, which perf reads as 0; inside the printk formats perf 6.1 frees what it parsed and crashes), with one
 * warning naming the cut and what it took; report and export print what they print for the whole recording. Where
 * the cut falls between or inside two events' formats (perf crashes), the first event keeps its format: the script
 * of the trace field refuses in one line naming the second event and the cut, and one without it prints every line.
 * Wherever the cut falls, report, dump and export say it in one warning line.
 */
class TracingDataCutLiveTest {
    @TempDir
    static Path dir;

    /** {@code -e sched:sched_switch} of two short sleeps: one format. */
    private static Path one;
    /** {@code -e sched:sched_switch -e sched:sched_wakeup -a}: two formats of one system. */
    private static Path two;

    @BeforeAll
    static void record() throws Exception {
        one = record("one.data", "-e", "sched:sched_switch", "--", "sh", "-c", "sleep 0.01; sleep 0.01");
        two = record("two.data", "-e", "sched:sched_switch", "-e", "sched:sched_wakeup", "-a", "--", "sleep", "0.1");
    }

    private static Path record(String name, String... options) throws Exception {
        Path data = dir.resolve(name);
        List<String> cmd = new ArrayList<>(List.of(LiveRecording.perf(), "record", "-N", "-q", "-o", data.toString()));
        cmd.addAll(List.of(options));
        assumeTrue(LiveRecording.run(cmd, null) == 0 && Files.size(data) > 0, "perf record failed here: " + cmd);
        return data;
    }

    /** Cuts after the formats, each compared with perf's script of the whole recording and of the cut copy. */
    @Test
    void cutsAfterTheFormatsKeepEveryFormat() throws Exception {
        TracingDataCut.Layout l = TracingDataCut.Layout.of(one);
        String whole = LiveRecording.perfOutput(dir, "script", "-i", one.toString());
        assertThat(whole).isNotEmpty();
        String cmdlines = "its saved cmdlines";
        String printk = "its printk formats and saved cmdlines";
        String kallsyms = "its kallsyms, printk formats and saved cmdlines";
        assertScriptAsWhole(one, whole, l.end() - 1, "its 1 format; lost " + cmdlines, true);
        assertScriptAsWhole(one, whole, l.cmdlines(), "its 1 format; lost " + cmdlines, true);
        assertThat(l.printkSize()).as("printk formats to cut").isPositive();
        assertScriptAsWhole(one, whole, l.printk() + 4 + l.printkSize() / 2, "its 1 format; lost " + printk, false);
        assertScriptAsWhole(one, whole, l.printk() + 2, "its 1 format; lost " + printk, true);
        assertScriptAsWhole(one, whole, l.kallsyms() + 2, "its 1 format; lost " + kallsyms, true);
        assertScriptAsWhole(one, whole, l.kallsyms(), "its 1 format; lost " + kallsyms, true);
        TracingDataCut.Layout l2 = TracingDataCut.Layout.of(two);
        String whole2 = LiveRecording.perfOutput(dir, "script", "-i", two.toString());
        assertScriptAsWhole(two, whole2, l2.end() - 8, "its 2 formats; lost " + cmdlines, true);
        assertScriptAsWhole(two, whole2, l2.kallsyms() + 4 + 2, "its 2 formats; lost " + printk, true);
    }

    /**
     * Cuts at {@code cut} and requires dfx script to print {@code whole} (perf script of the whole recording) with
     * exit 0 and one warning that names the cut and {@code kept}; where {@code perfReads}, perf script of the cut copy
     * prints the same (perf 6.1 crashes on the others).
     */
    private static void assertScriptAsWhole(Path recording, String whole, long cut, String kept, boolean perfReads)
        throws Exception {
        TracingDataCut c = TracingDataCut.at(recording, dir, cut);
        CliRun run = CliRun.dfx("script", "-i", c.file().toString());
        assertThat(run.status()).as("cut at %d: %s", cut, run.err()).isZero();
        ScriptGoldenTest.assertSameText("dfx script, cut at " + cut, whole, run.out());
        assertThat(run.err().lines().toList()).as("cut at %d", cut).singleElement().asString()
            .startsWith("dfx: warning: " + c.file() + ": byte offset " + c.table() + ": " + c.why()
                + "; read TRACING_DATA up to the cut (" + kept + ") and the file without the ")
            .contains(" other features cut: BUILD_ID, ");
        Path perfOut = dir.resolve("perf-cut.txt");
        int status = LiveRecording.run(List.of(LiveRecording.perf(), "script", "-i", c.file().toString()),
            perfOut.toFile());
        if (perfReads) {
            assertThat(status).as("perf script of the copy cut at %d", cut).isZero();
            ScriptGoldenTest.assertSameText("perf script, cut at " + cut, Files.readString(perfOut,
                StandardCharsets.ISO_8859_1), run.out());
        }
    }

    /** report, dump and export of a copy cut inside its printk formats read the tracepoints as the whole recording. */
    @Test
    void reportDumpAndExportOfACutAfterTheFormats() throws Exception {
        TracingDataCut.Layout l = TracingDataCut.Layout.of(two);
        TracingDataCut c = TracingDataCut.at(two, dir, l.printk() + 4 + l.printkSize() / 2);
        String wholeReport = ReportLiveTest.withoutTip(LiveRecording.perfOutput(dir, "report", "--stdio", "-i",
            two.toString()));
        CliRun report = CliRun.dfx("report", "--stdio", "-i", c.file().toString());
        assertThat(report.status()).as(report.err()).isZero();
        ScriptGoldenTest.assertSameText("dfx report of the cut copy", wholeReport, report.out());
        assertThat(report.out()).doesNotContain("unknown tracepoint");
        assertThat(report.err().lines()).singleElement().asString().contains("; read TRACING_DATA up to the cut (");
        CliRun dump = CliRun.dfx("dump", "-i", c.file().toString());
        assertThat(dump.status()).as(dump.err()).isZero();
        assertThat(dump.out()).doesNotContain("unknown tracepoint");
        CliRun wholeDump = CliRun.dfx("dump", "-i", two.toString());
        assertThat(dump.out().replace(c.file().toString(), two.toString())).isEqualTo(wholeDump.out());
        Path cutJson = dir.resolve("cut.json");
        Path wholeJson = dir.resolve("whole.json");
        CliRun export = CliRun.dfx("export", "-i", c.file().toString(), "--format", "chrome", "-o", cutJson.toString());
        assertThat(export.status()).as(export.err()).isZero();
        assertThat(CliRun.dfx("export", "-i", two.toString(), "--format", "chrome", "-o", wholeJson.toString())
            .status()).isZero();
        assertThat(Files.readString(cutJson).replace(c.file().toString(), two.toString()))
            .isEqualTo(Files.readString(wholeJson));
    }

    /**
     * A cut between the two formats, and one inside the second: the second event's format is lost, the first's kept.
     * perf 6.1 crashes on both; dfx refuses the trace field in one line naming event 2 and the cut, and prints every
     * line without it, as perf prints the whole recording.
     */
    @Test
    void aCutBetweenOrInsideTheFormatsLosesOnlyTheLaterOnes() throws Exception {
        TracingDataCut.Layout l = TracingDataCut.Layout.of(two);
        assertThat(l.formats()).hasSize(2);
        long second = l.formats().get(1);
        String fields = LiveRecording.perfOutput(dir, "script", "-F", "comm,tid,time", "-i", two.toString());
        for (long cut : new long[] {second, second + 4, (second + l.kallsyms()) / 2}) {
            TracingDataCut c = TracingDataCut.at(two, dir, cut);
            long config = c.config() + u64(two, 16); // event 2's attr.config: one attr_size (byte 16) after event 1's
            String event2 = "tracepoint event 2 (config " + u64(two, config) + ") has no format: " + c.why();
            CliRun run = CliRun.dfx("script", "-i", c.file().toString());
            assertThat(run.status()).as("cut at %d", cut).isEqualTo(1);
            assertThat(run.out()).isEmpty();
            assertThat(run.err()).isEqualTo("dfx: " + c.file() + ": byte offset " + config + ": " + event2
                + "; expected the format of every tracepoint event whose fields are printed (-F without trace prints"
                + " the rest)\n");
            CliRun rest = CliRun.dfx("script", "-F", "comm,tid,time", "-i", c.file().toString());
            assertThat(rest.status()).as(rest.err()).isZero();
            ScriptGoldenTest.assertSameText("dfx script -F comm,tid,time, cut at " + cut, fields, rest.out());
            // one warning for the cut: the event it left without a format (-F without trace: no hint), then what
            // was kept of the section and the other features lost
            assertThat(rest.err().lines().toList()).singleElement().asString().startsWith("dfx: warning: " + c.file()
                + ": byte offset " + config + ": " + event2 + "; its samples are read without their tracepoint fields;"
                + " read TRACING_DATA up to the cut (its 1 format; lost the formats from byte offset " + second
                + " on, its kallsyms, printk formats and saved cmdlines) and the file without the ");
        }
    }

    /**
     * Cuts before the first format (in the section's header page), inside the first, at and inside the second, and
     * after both (in the kallsyms size, in the printk formats): report, dump and export each exit 0 with one warning
     * line for the cut, which names the file, the section and the byte offset the file ends at, what was kept of the
     * section and the other features lost; where the cut took formats, it is the line naming the events without
     * them, at the first one's config.
     */
    @Test
    void reportDumpAndExportSayTheCutInOneWarning() throws Exception {
        TracingDataCut.Layout l = TracingDataCut.Layout.of(two);
        long first = l.formats().get(0);
        long second = l.formats().get(1);
        String lostBoth = "read the file without the ";
        String allCut = " features cut: TRACING_DATA, BUILD_ID, ";
        String lostSecond = "read TRACING_DATA up to the cut (its 1 format; lost the formats from byte offset " + second
            + " on, its kallsyms, printk formats and saved cmdlines) and the file without the ";
        String otherCut = " other features cut: BUILD_ID, ";
        String keptBoth = "read TRACING_DATA up to the cut (its 2 formats; lost its ";
        assertOneCutWarning(l.start() + 40, 1, lostBoth, allCut);
        assertOneCutWarning((first + second) / 2, 1, lostBoth, allCut);
        assertOneCutWarning(second, 2, lostSecond, otherCut);
        assertOneCutWarning((second + l.kallsyms()) / 2, 2, lostSecond, otherCut);
        assertOneCutWarning(l.kallsyms() + 2, 0, keptBoth + "kallsyms, printk formats and saved cmdlines) and the file"
            + " without the ", otherCut);
        assertOneCutWarning(l.printk() + 4 + l.printkSize() / 2, 0, keptBoth + "printk formats and saved cmdlines)"
            + " and the file without the ", otherCut);
    }

    /**
     * Cuts {@link #two} at {@code cut} and requires report, dump and export to exit 0 with exactly one line on
     * standard error, the warning for the cut: {@link TracingDataCut#why} (the section, "truncated at EOF"
     * {@code cut}), then, after what the missing formats cost the command, {@code read} and a list of the features
     * lost that starts with {@code features}. Where the cut took formats, it is at tracepoint event {@code from}'s
     * config and names the events from {@code from} to 2 as without a format; where it took none ({@code from} 0),
     * at the feature table.
     */
    private static void assertOneCutWarning(long cut, int from, String read, String features) throws Exception {
        TracingDataCut c = TracingDataCut.at(two, dir, cut);
        assertThat(c.why()).contains(" truncated at EOF " + cut + " ");
        long config = c.config() + (from - 1) * u64(two, 16); // the attrs are attr_size (byte 16) bytes apart
        String start = "dfx: warning: " + c.file() + ": byte offset " + switch (from) {
            case 0 -> c.table() + ": " + c.why() + "; ";
            case 1 -> config + ": tracepoint events 1-2 have no format: " + c.why() + "; their samples are read";
            default -> config + ": tracepoint event 2 (config " + u64(two, config) + ") has no format: " + c.why()
                + "; its samples are read";
        };
        Path json = dir.resolve("cut-" + cut + ".json");
        for (List<String> args : List.of(List.of("report", "--stdio"), List.of("dump"),
            List.of("export", "--format", "chrome", "-o", json.toString()))) {
            List<String> cmd = new ArrayList<>(args);
            cmd.addAll(List.of("-i", c.file().toString()));
            CliRun run = CliRun.dfx(cmd.toArray(String[]::new));
            assertThat(run.status()).as("%s, cut at %d: %s", cmd, cut, run.err()).isZero();
            assertThat(run.err().lines().toList()).as("%s, cut at %d", cmd, cut).singleElement().asString()
                .startsWith(start).containsOnlyOnce("; " + read).containsPattern("; " + Pattern.quote(read)
                    + "\\d+" + Pattern.quote(features));
        }
    }

    /** @return the little-endian u64 at byte offset {@code at} of {@code file} */
    private static long u64(Path file, long at) throws Exception {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN).getLong((int) at);
    }
}
