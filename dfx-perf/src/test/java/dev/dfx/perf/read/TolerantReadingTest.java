package dev.dfx.perf.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.dump.DumpPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import dev.dfx.pmu.attr.PerfEventAttr;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the reader reads past with a warning instead of refusing, on copies of the fixtures edited in the test:
 * records of unknown types (skipped by their size, listed by the dump), tracepoint events without a format (only
 * printing their fields stops), non-zero attr bytes past the attr dfx knows, and the statistics block of a dump
 * whose data turns out damaged. Expected texts come from the goldens perf 6.1 printed for the intact files, edited
 * by what the test changed, and where perf is installed from the real perf on an equivalent file.
 */
class TolerantReadingTest {
    private static final String CLOCK = "task-clock-c100000-cpu";
    private static final String CLOCK_FIELDS = "comm,tid,pid,cpu,time,event,period";
    private static final String SCHED = "sched-switch-wakeup-a";
    private static final int SAMPLE = 9;

    @TempDir
    Path dir;

    /**
     * Two SAMPLE records get the types 99 and 0xffffffff: both are skipped by their sizes with one warning that
     * names the first and counts both; the script is perf's for the same file without those records (perf 6.1
     * refuses the types; perf since 6.9 skips them), and the dump lists both records as read.
     */
    @Test
    void recordsOfUnknownTypesAreSkippedByTheirSizeWithOneWarningAndDumped() throws IOException {
        byte[] good = fixture(CLOCK + ".data");
        List<Integer> samples = recordOffsets(good, SAMPLE);
        int first = samples.get(200);
        int second = samples.get(300);
        byte[] bad = good.clone();
        ByteBuffer b = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(first, 99);
        b.putInt(second, -1);
        Path p = write("unknown.data", bad);

        String script;
        List<String> warnings;
        try (PerfSession s = PerfSession.open(p, "unknown.data")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Goldens.script(s, out, CLOCK_FIELDS);
            script = out.toString(StandardCharsets.ISO_8859_1);
            warnings = s.warnings().lines();
        }
        assertThat(warnings).containsExactly("unknown.data: byte offset " + first + ": record type 99 is unknown"
            + " (size 40): skipped by its size (a record of a newer perf or kernel, or a damaged type field)"
            + " (2 records of unknown types skipped in all)");
        List<String> expected = new ArrayList<>(Arrays.asList(Goldens.read(CLOCK + ".script-F.txt").split("\n")));
        assertThat(expected.removeIf(l -> l.contains(usec(sampleTime(good, first)) + ":")
            || l.contains(usec(sampleTime(good, second)) + ":"))).isTrue();
        assertThat(expected).hasSize(453 - 2);
        Goldens.assertSame("script without the two samples", String.join("\n", expected) + "\n", script);

        // the real perf on the file with the two records taken out prints the same
        Path without = write("without.data", Rewriter.rewrite(good, rs -> rs.stream()
            .filter(r -> !Arrays.equals(r, Arrays.copyOfRange(good, first, first + 40))
                && !Arrays.equals(r, Arrays.copyOfRange(good, second, second + 40))).toList()));
        LivePerf perf = LivePerf.run(dir, "script", "-i", without.getFileName().toString(), "-F", CLOCK_FIELDS);
        if (perf != null) {
            assertThat(perf.status()).isZero();
            Goldens.assertSame("perf script without the two records", perf.out(), script);
        }

        String dump = Goldens.dump(p, "unknown.data");
        assertThat(dump).contains(String.format("%n0x%x@unknown.data [0x28]: event: 99%n", first))
            .contains(String.format("%n0x%x [0x28]: PERF_RECORD_UNKNOWN type 99: skipped by its size%n", first))
            .contains(String.format("%n0x%x [0x28]: PERF_RECORD_UNKNOWN type 4294967295: skipped by its size%n",
                second));
        String golden = Goldens.read(CLOCK + ".dump.txt");
        assertThat(recordHeaders(dump)).hasSameSizeAs(recordHeaders(golden));
        assertThat(statsCount(dump, "SAMPLE")).isEqualTo(statsCount(golden, "SAMPLE") - 2);
        assertThat(statsCount(dump, "TOTAL")).isEqualTo(statsCount(golden, "TOTAL") - 2);
    }

    /** An unknown type whose size is not a multiple of 8: the framing is lost, so it is refused at the record. */
    @Test
    void anUnknownRecordWithAMisalignedSizeIsRefused() throws IOException {
        byte[] b = fixture(CLOCK + ".data");
        int at = recordOffsets(b, SAMPLE).get(100);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, 99).putShort(at + 6, (short) 36);
        Path p = write("misaligned.data", b);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Throwable t = catchThrowable(() -> {
            try (PerfSession s = PerfSession.open(p, "misaligned.data")) {
                Goldens.script(s, out, CLOCK_FIELDS);
            }
        });
        assertThat(t).isInstanceOf(BadInputException.class).hasMessage("misaligned.data: byte offset " + at
            + ": record type 99 is unknown and its size 36 is not a multiple of 8; expected a kernel record type"
            + " 1..21 or a perf record type 64..83, or an 8-byte aligned record");
        assertThat(Goldens.read(CLOCK + ".script-F.txt")).startsWith(out.toString(StandardCharsets.ISO_8859_1));
    }

    /**
     * The first event's config no longer names a format: the dump prints every record (as many as perf printed for
     * the intact file) with a warning at the config field; a script of its fields is refused before its first line,
     * naming the event.
     */
    @Test
    void aTracepointEventWithoutFormatStopsOnlyWhatNeedsTheFormat() throws IOException {
        byte[] b = fixture(SCHED + ".data");
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long config = bb.getLong(24) + PerfEventAttr.CONFIG_OFFSET;
        long id = bb.getLong((int) config);
        bb.putLong((int) config, 999_999);
        Path p = write("noformat.data", b);
        String why = "tracepoint event 1 (config 999999) has no format: no format of the TRACING_DATA feature has ID"
            + " 999999";
        String dump = Goldens.dump(p, "noformat.data");
        assertThat(recordHeaders(dump)).isEqualTo(recordHeaders(Goldens.read(SCHED + ".dump.txt")
            .replace("@" + SCHED + ".data", "@noformat.data")));
        try (PerfSession s = PerfSession.open(p, "noformat.data")) {
            assertThat(s.warnings().lines()).containsExactly("noformat.data: byte offset " + config + ": " + why
                + "; its samples are read without their tracepoint fields");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThatThrownBy(() -> Goldens.script(s, out, "comm,tid,pid,cpu,time,event,trace"))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("byte offset " + config + ": " + why + "; expected the format of every"
                    + " tracepoint event whose fields are printed (-F without trace prints the rest)");
            assertThat(out.size()).as("refused before the first line").isZero();
        }
        assertThat(id).isNotEqualTo(999_999);
    }

    /**
     * A recording cut inside its TRACING_DATA feature section (the last bytes of the file), inside the first format:
     * the section is named as truncated at EOF, not missing, and every record is still dumped.
     */
    @Test
    void aFeatureSectionCutByTheEndOfTheFileIsTruncatedAtEofNotMissing() throws IOException {
        byte[] good = fixture(SCHED + ".data");
        ByteBuffer bb = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        TracingDataEntry td = TracingDataEntry.of(good);
        long table = td.table();
        long off = td.off();
        long size = td.size();
        int cut = indexOf(good, "name: sched_switch\n") + 10;
        Path p = write("cut.data", Arrays.copyOf(good, cut));
        try (PerfSession s = PerfSession.open(p, "cut.data")) {
            // one line for the one cut, at the first event's config (in the attrs): both events lack their formats
            // for that one reason, and the other sections follow TRACING_DATA in the file, so the cut took them too
            // (the feature table's own warning, at byte offset table, is said in this one)
            List<String> w = s.warnings().lines();
            assertThat(w).singleElement().asString().startsWith("cut.data: byte offset " + (bb.getLong(24) + 8)
                + ": tracepoint events 1-2 have no format: the TRACING_DATA feature section [" + off + ", +" + size
                + ") truncated at EOF " + cut + " (the section ends at byte " + (off + size) + "); their samples are"
                + " read without their tracepoint fields; read the file without the 21 features cut: TRACING_DATA,"
                + " BUILD_ID, HOSTNAME, ")
                .doesNotContain("byte offset " + table);
            assertThat(s.features()).isEmpty();
            assertThat(s.missingFormat(s.evlist().first())).isEqualTo("tracepoint event 1 (config "
                + s.evlist().first().attr().config() + ") has no format: the TRACING_DATA feature section [" + off
                + ", +" + size + ") truncated at EOF " + cut + " (the section ends at byte " + (off + size) + ")");
            // a command's hint goes after what the warning says of the events, before what it says of the cut; the
            // warning keeps its place, and a second hint replaces the first
            s.hintMissingFormats(" (first hint)");
            s.hintMissingFormats(" (second hint)");
            assertThat(s.warnings().lines()).containsExactly(w.getFirst().replace("tracepoint fields; read the file",
                "tracepoint fields (second hint); read the file"));
            // a refusal for the missing formats names the cut itself: the warning goes
            s.withdrawMissingFormatWarnings();
            assertThat(s.warnings().lines()).isEmpty();
        }
        assertThat(recordHeaders(Goldens.dump(p, "cut.data"))).isEqualTo(recordHeaders(
            Goldens.read(SCHED + ".dump.txt").replace("@" + SCHED + ".data", "@cut.data")));
    }

    /**
     * A recording cut inside its TRACING_DATA section after both formats (inside the printk formats; the section's
     * layout read by hand with the fixture's {@code trace-event-info.c} sizes): both formats are kept, so no event lacks
     * one, and the one warning names the cut and what it took. Cut at the second format's start instead, the first
     * event keeps its format and the second names the cut.
     */
    @Test
    void aTracingDataSectionCutAfterAFormatKeepsIt() throws IOException {
        byte[] good = fixture(SCHED + ".data");
        TracingDataEntry td = TracingDataEntry.of(good);
        long table = td.table();
        long off = td.off();
        long size = td.size();
        // the printk formats' text is the section's last but 8 bytes (a u64 saved cmdlines size of 0 follows)
        int printkEnd = (int) (off + size - 8);
        int cut = printkEnd - 100;
        Path p = write("cut.data", Arrays.copyOf(good, cut));
        String why = "the TRACING_DATA feature section [" + off + ", +" + size + ") truncated at EOF " + cut + " (the"
            + " section ends at byte " + (off + size) + ")";
        try (PerfSession s = PerfSession.open(p, "cut.data")) {
            assertThat(s.warnings().lines()).singleElement().asString().startsWith("cut.data: byte offset " + table
                + ": " + why + "; read TRACING_DATA up to the cut (its 2 formats; lost its printk formats and saved"
                + " cmdlines) and the file without the 20 other features cut: BUILD_ID, HOSTNAME, ");
            for (var e : s.evlist().all()) {
                assertThat(s.missingFormat(e)).isNull();
            }
            assertThat(s.traceEvents().formatsCut()).isFalse();
            assertThat(s.traceEvents().printk()).isEmpty();
        }
        int second = indexOf(good, "name: sched_wakeup\n") - 8; // its u64 size
        Path between = write("between.data", Arrays.copyOf(good, second));
        String whyBetween = why.replace("EOF " + cut, "EOF " + second);
        try (PerfSession s = PerfSession.open(between, "between.data")) {
            var events = s.evlist().all();
            assertThat(events.get(0).format().fullName()).isEqualTo("sched:sched_switch");
            assertThat(s.missingFormat(events.get(0))).isNull();
            assertThat(s.missingFormat(events.get(1))).isEqualTo("tracepoint event 2 (config "
                + events.get(1).attr().config() + ") has no format: " + whyBetween);
            assertThat(s.traceEvents().formatsCut()).isTrue();
            // one line for the cut, at the second attr's config (attrs at byte 24, entry size at byte 16): the event
            // it left without a format, then what of the section was kept
            ByteBuffer attrs = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(s.warnings().lines()).singleElement().asString().startsWith("between.data: byte offset "
                + (attrs.getLong(24) + attrs.getLong(16) + 8) + ": tracepoint event 2 (config " + events.get(1).attr().config()
                + ") has no format: " + whyBetween + "; its samples are read without their tracepoint fields; read"
                + " TRACING_DATA up to the cut (its 1 format; lost the formats from byte offset " + second + " on, its"
                + " kallsyms, printk formats and saved cmdlines) and the file without the 20 other features cut: ");
        }
    }

    /**
     * A little-endian file's TRACING_DATA feature table entry: feature bit 1, the first entry of the table, which
     * follows the data section (u64 offset and size at bytes 40 and 48).
     *
     * @param table the entry's byte offset
     * @param off   the section's byte offset
     * @param size  the section's size
     */
    private record TracingDataEntry(long table, long off, long size) {
        static TracingDataEntry of(byte[] file) {
            ByteBuffer bb = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
            long table = bb.getLong(40) + bb.getLong(48);
            return new TracingDataEntry(table, bb.getLong((int) table), bb.getLong((int) table + 8));
        }
    }

    /** @return the byte offset of the first occurrence of {@code text} (ASCII) in {@code b} */
    private static int indexOf(byte[] b, String text) {
        int at = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf(text);
        assertThat(at).as(text).isPositive();
        return at;
    }

    /**
     * A record torn by the end of the file: the dump prints the records before it and then the statistics block
     * for them (perf 6.1 dies of SIGBUS there) before the damage is named.
     */
    @Test
    void aDumpCutShortStillPrintsItsStatistics() throws IOException {
        byte[] good = fixture(CLOCK + ".data");
        int torn = recordOffsets(good, SAMPLE).get(150);
        Path p = write("torn.data", Arrays.copyOf(good, torn + 20));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Throwable t = catchThrowable(() -> {
            try (PerfSession s = PerfSession.open(p, "torn.data")) {
                TextSink out = new TextSink(bytes);
                try {
                    new DumpPrinter(s, out).run();
                } finally {
                    out.flush();
                }
            }
        });
        assertThat(t).isInstanceOf(BadInputException.class).hasMessageStartingWith("torn.data: byte offset " + torn
            + ": truncated SAMPLE record of 40 bytes: data section truncated at EOF " + (torn + 20));
        String dump = bytes.toString(StandardCharsets.ISO_8859_1);
        int before = allRecordOffsets(good).indexOf(torn);
        int samplesBefore = recordOffsets(good, SAMPLE).indexOf(torn);
        assertThat(recordHeaders(dump)).hasSize(before);
        assertThat(dump).contains("\nAggregated stats:\n");
        assertThat(statsCount(dump, "TOTAL")).isEqualTo(before);
        assertThat(statsCount(dump, "SAMPLE")).isEqualTo(samplesBefore);
        assertThat(dump).endsWith(String.format("task-clock stats:%n%16s events: %10d%n", "SAMPLE", samplesBefore));
    }

    /**
     * A pipe-mode HEADER_ATTR whose attr is 8 bytes longer than the 136 dfx knows, two of them not zero: one warning
     * names them; the recording otherwise reads as perf printed it.
     */
    @Test
    void nonZeroAttrBytesPastTheKnownSizeAreNamedInAWarning() throws IOException {
        byte[] good = fixture("sched-proc.pipe.data");
        ByteBuffer bb = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16;
        while ((bb.getInt(at)) != 64) { // the first HEADER_ATTR
            at += bb.getShort(at + 6) & 0xffff;
        }
        int size = bb.getShort(at + 6) & 0xffff;
        int attrSize = bb.getInt(at + 8 + 4);
        assertThat(attrSize).isLessThanOrEqualTo(PerfEventAttr.SIZE_VER8);
        int grow = PerfEventAttr.SIZE_VER8 + 8 - attrSize;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(good, 0, at + 8 + attrSize);
        byte[] tail = new byte[grow];
        tail[grow - 8 + 1] = 0x5a;
        tail[grow - 8 + 6] = 0x01;
        out.write(tail, 0, grow);
        out.write(good, at + 8 + attrSize, good.length - (at + 8 + attrSize));
        byte[] bad = out.toByteArray();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putShort(at + 6, (short) (size + grow))
            .putInt(at + 8 + 4, PerfEventAttr.SIZE_VER8 + 8);
        Path p = write("newer.data", bad);
        try (PerfSession s = PerfSession.open(p, "newer.data")) {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            Goldens.script(s, text, "comm,tid,pid,cpu,time,event,trace");
            Goldens.assertSame("script", Goldens.read("sched-proc.pipe.script-F.txt"),
                text.toString(StandardCharsets.ISO_8859_1));
            int attrAt = at + 8;
            assertThat(s.warnings().lines()).containsExactly("newer.data: byte offset "
                + (attrAt + PerfEventAttr.SIZE_VER8 + 1) + ": the attr at byte offset " + attrAt + " has 144 bytes, 8"
                + " more than the 136 of the perf_event_attr dfx knows, and 2 of them are not zero (byte 137 = 0x5a,"
                + " byte 142 = 0x1): fields of a newer perf that dfx ignores");
        }
    }

    /** A SAMPLE's time of the clock fixture: sample_type IP|TID|TIME|CPU|PERIOD puts it at byte 24. */
    private static long sampleTime(byte[] file, int at) {
        return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getLong(at + 24);
    }

    /** @return perf script's time text (seconds with 6 digits), as a golden line holds it */
    private static String usec(long ns) {
        return String.format(" %d.%06d", ns / 1_000_000_000L, ns % 1_000_000_000L / 1000);
    }

    private static List<Integer> recordOffsets(byte[] file, int type) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Integer> out = new ArrayList<>();
        for (int at : allRecordOffsets(file)) {
            if (b.getInt(at) == type) {
                out.add(at);
            }
        }
        return out;
    }

    private static List<Integer> allRecordOffsets(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) b.getLong(40);
        int end = at + (int) b.getLong(48);
        List<Integer> out = new ArrayList<>();
        while (at < end) {
            out.add(at);
            at += b.getShort(at + 6) & 0xffff;
        }
        return out;
    }

    /** @return the record header lines of a dump ({@code 0xOFF@FILE [0xSIZE]: event: TYPE}) without the types */
    private static List<String> recordHeaders(String dump) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^(0x[0-9a-f]+@\\S+ \\[0x[0-9a-f]+\\]): event: -?\\d+$").matcher(dump);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** @return the count of the first {@code NAME events:} line of the dump's statistics */
    private static long statsCount(String dump, String name) {
        Matcher m = Pattern.compile("(?m)^ *" + name + " events: +(\\d+)").matcher(dump);
        assertThat(m.find()).as(name + " in the statistics").isTrue();
        return Long.parseLong(m.group(1));
    }

    private static byte[] fixture(String name) throws IOException {
        return Files.readAllBytes(Goldens.fixture(name));
    }

    private Path write(String name, byte[] b) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, b);
        return p;
    }
}
