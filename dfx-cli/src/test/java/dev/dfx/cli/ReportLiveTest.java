package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx report -i perf.data} prints, byte for byte, what {@code perf report --stdio} prints, on fresh recordings
 * of renamer.c made here with the real perf (cpu-clock with callchains, page faults with callchains, two events at
 * once, cpu-clock with callchains in pipe mode): children and self, {@code --no-children}, {@code -g none},
 * {@code --sort}, {@code -F}, {@code --percent-limit}; with symbols (the program's own, libc's, the running kernel's
 * where perf may read them) and without ({@code --symfs} nowhere, {@code --kallsyms=/dev/null}). Both sides use an
 * empty build-id cache, so nothing outside the test's folder and the recorded files decides a symbol. perf's output
 * ends with a random tip ({@code #}, {@code # (Tip: ...)}, {@code #}), which dfx does not print and the comparison
 * leaves out.
 */
class ReportLiveTest {
    /** perf_file_header.adds_features: a bitmap of 256 feature bits after the magic and five 8 or 16 byte fields */
    private static final int FEATURES_OFFSET = 72;
    private static final int FEATURES_BYTES = 32;

    @TempDir
    static Path dir;

    private static Path cache;

    @BeforeAll
    static void record() throws Exception {
        LiveRecording.record(dir, "cpu.data", "-e", "cpu-clock", "-c", "500000", "-g");
        LiveRecording.record(dir, "faults.data", "-e", "page-faults", "-c", "1", "-g");
        LiveRecording.record(dir, "two.data", "-e", "cpu-clock,page-faults", "-c", "200000", "-g");
        LiveRecording.record(dir, "flat.data", "-e", "cpu-clock", "-c", "500000");
        // pipe mode: the attrs arrive as HEADER_ATTR records in the data, not in a header section
        int status = LiveRecording.run(List.of(LiveRecording.perf(), "record", "-N", "-q", "-o", "-", "-e", "cpu-clock",
            "-c", "500000", "-g", "--", dir.resolve("renamer").toString(), LiveRecording.SPIN),
            dir.resolve("pipe.data").toFile());
        assertThat(status).as("perf record -o -").isZero();
        cache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
    }

    static Stream<Arguments> reports() {
        List<Arguments> out = new ArrayList<>();
        String[] options = {"", "--no-children", "-g none", "--sort pid,cpu,dso", "--sort sym", "--sort dso,sym",
            "--sort comm --no-children", "-F overhead,sample,period,comm", "-F sym,overhead_children,overhead",
            "--percent-limit 5", "--percent-limit 2 --no-children", "-g"};
        for (String file : List.of("cpu.data", "faults.data", "two.data")) {
            for (String o : options) {
                out.add(Arguments.of(file, o, true));
            }
            out.add(Arguments.of(file, "", false));
            out.add(Arguments.of(file, "--no-children --sort sym,comm", false));
        }
        out.add(Arguments.of("pipe.data", "", true));
        out.add(Arguments.of("pipe.data", "--children", true));
        out.add(Arguments.of("pipe.data", "--no-children", true));
        out.add(Arguments.of("pipe.data", "-g none --sort dso,sym", true));
        out.add(Arguments.of("flat.data", "", true));
        out.add(Arguments.of("flat.data", "--sort cpu,pid", false));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} symbols={2}")
    @MethodSource("reports")
    void dfxReportIsPerfReport(String file, String options, boolean symbols) throws Exception {
        String data = dir.resolve(file).toString();
        List<String> opts = options.isEmpty() ? List.of() : Arrays.asList(options.split(" "));
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", cache.toString(), "report", "-i", data,
            "--stdio"));
        List<String> dfx = new ArrayList<>(List.of("report", "-i", data, "--buildid-dir", cache.toString()));
        if (!symbols) {
            perf.addAll(List.of("--symfs=/nonexistent", "--kallsyms=/dev/null"));
            dfx.addAll(List.of("--symfs", "/nonexistent", "-k", "/dev/null"));
        }
        perf.addAll(opts);
        dfx.addAll(opts);
        String expected = withoutTip(LiveRecording.perfOutput(dir, perf.toArray(String[]::new)));
        CliRun run = CliRun.dfx(dfx.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(expected).as("perf printed entries").contains("%");
        // both texts hold bytes as one char each (perf's read as ISO-8859-1, dfx's written through RawOutput)
        ScriptGoldenTest.assertSameText(file + " report " + options, expected, run.out());
    }

    /**
     * A recording cut two thirds into its data (inside a record, the feature sections lost with it): dfx prints the
     * report of the samples before the cut, byte for byte what perf prints for the same recording whose header
     * ends the data at the last whole record and lists no feature sections (perf 6.1 itself reads the cut file's
     * missing bytes as zeros and prints no report), then one line naming the file and the byte offset of the torn
     * record, and exits 1.
     * Each perf run gets a fresh empty build-id cache: the cut file has no build ids, so neither tool may use one.
     * With comm among the sort keys, a thread sampled before its first COMM (no FORK seen) is renamed in place when
     * the COMM comes, as perf does ({@link ReportCommRenameTest}).
     */
    @ParameterizedTest(name = "cut cpu.data {0}")
    @ValueSource(strings = {"", "--no-children", "--sort dso,sym -g none"})
    void aCutRecordingReportsTheSamplesBeforeTheCutAndNamesWhere(String options) throws Exception {
        Path whole = dir.resolve("cpu.data");
        byte[] bytes = Files.readAllBytes(whole);
        ByteBuffer h = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long dataOffset = h.getLong(40);
        long cut = dataOffset + h.getLong(48) * 2 / 3;
        long end = dataOffset;
        while (end + 8 <= cut && end + (h.getShort((int) end + 6) & 0xffff) <= cut) {
            end += h.getShort((int) end + 6) & 0xffff;
        }
        if (end == cut) {
            cut += 4; // two thirds fell between two records of this recording: cut inside the next one's header
        }
        assertThat(end).as("the cut falls inside a record").isLessThan(cut);
        Path cutFile = dir.resolve("cut-" + options.hashCode() + ".data");
        Files.write(cutFile, Arrays.copyOf(bytes, (int) cut));
        Path endedFile = dir.resolve("ended-" + options.hashCode() + ".data");
        h.putLong(48, end - dataOffset);
        // the cut lost the feature sections: perf must not read them either, above all BUILD_ID, whose order is the
        // order perf allocates DSOs in and so breaks ties between callchain entries of equal weight
        Arrays.fill(bytes, FEATURES_OFFSET, FEATURES_OFFSET + FEATURES_BYTES, (byte) 0);
        Files.write(endedFile, bytes);

        Path perfCache = Files.createTempDirectory(dir, "perf-cache");
        List<String> opts = options.isEmpty() ? List.of() : Arrays.asList(options.split(" "));
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", perfCache.toString(), "report", "-i",
            endedFile.toString(), "--stdio"));
        perf.addAll(opts);
        List<String> dfx = new ArrayList<>(List.of("report", "-i", cutFile.toString(), "--buildid-dir",
            cache.toString()));
        dfx.addAll(opts);
        String expected = withoutTip(LiveRecording.perfOutput(dir, perf.toArray(String[]::new)));
        CliRun run = CliRun.dfx(dfx.toArray(String[]::new));
        assertThat(expected).as("perf printed entries").contains("%");
        ScriptGoldenTest.assertSameText("cut report " + options, expected, run.out());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).startsWith("dfx: " + cutFile + ": byte offset " + end + ": truncated ")
            .endsWith("; reported the samples read before it\n").hasLineCount(1);
    }

    /** @return perf's text without its closing tip block, checked to be one */
    static String withoutTip(String text) {
        String[] lines = text.split("\n", -1);
        int n = lines.length - 1; // the text ends with a newline
        assertThat(lines[n - 3]).isEqualTo("#");
        assertThat(lines[n - 2]).startsWith("# (");
        assertThat(lines[n - 1]).isEqualTo("#");
        return String.join("\n", Arrays.copyOf(lines, n - 3)) + "\n";
    }
}
