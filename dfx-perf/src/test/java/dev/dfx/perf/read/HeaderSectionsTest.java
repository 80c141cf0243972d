package dev.dfx.perf.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.Goldens;
import dev.dfx.perf.session.PerfSession;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The u64 section fields of the perf.data header ({@code struct perf_file_header}: attrs at byte 24/32, data at
 * 40/48) with values whose sums overflow a signed long, a zero data size, a file cut inside its attrs, and a record
 * type perf 6.1 does not know.
 * The fixture {@code task-clock-c100000-cpu.data} has its data section at [264, +19112) and 24320 bytes; its
 * {@code perf script} output is the golden {@code task-clock-c100000-cpu.script-F.txt} (453 samples).
 */
class HeaderSectionsTest {
    private static final String FIXTURE = "task-clock-c100000-cpu.data";
    private static final String FIELDS = "comm,tid,pid,cpu,time,event,period";
    private static final long DATA_OFFSET = 264;
    private static final long DATA_END = 264 + 19112;
    private static final long FILE_SIZE = 24320;

    @TempDir
    Path dir;

    /** Data sizes whose end {@code 264 + size} is at or past 2^63 (a signed long sum wraps negative). */
    @ParameterizedTest
    @ValueSource(longs = {Long.MAX_VALUE, -1L, Long.MIN_VALUE, Long.MAX_VALUE - 263})
    void aDataSectionEndingPast2To63IsRefusedAtTheSectionNotReadAsEmpty(long size) throws IOException {
        Path p = patched("over.data", 48, size);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThatThrownBy(() -> script(p, out))
            .isInstanceOf(BadInputException.class)
            .hasMessage("over.data: byte offset 40: data section [264, +" + Long.toUnsignedString(size) + ") runs past"
                + " the end of the file (24320 bytes) and past 2^63 bytes; expected it to end inside the file");
        assertThat(out.size()).isZero();
    }

    /**
     * A data size just short of the overflow puts the feature table (at data.offset + data.size) within 16 bytes of
     * 2^63: the table's end overflows. The data section is then a cut recording: every sample is printed, and the
     * end of the records (the feature sections follow them at byte 19376) is named.
     */
    @Test
    void aFeatureTableEndingPast2To63IsIgnoredAndTheSamplesAreRead() throws IOException {
        long size = Long.MAX_VALUE - DATA_OFFSET - 4;
        Path p = patched("feat.data", 48, size);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Throwable t = catchThrowable(() -> script(p, out));
        assertThat(t).isInstanceOf(BadInputException.class)
            .hasMessageStartingWith("feat.data: byte offset " + DATA_END + ": record of type ");
        Goldens.assertSame("all samples", Goldens.read("task-clock-c100000-cpu.script-F.txt"), text(out));
    }

    /** Attrs sections past the end, with the u64 fields named unsigned as the header holds them. */
    @ParameterizedTest
    @MethodSource("attrsSections")
    void anAttrsSectionOutsideTheFileIsNamedWithItsUnsignedFields(int field, long value, String section)
        throws IOException {
        Path p = patched("attrs.data", field, value);
        assertThatThrownBy(() -> script(p, new ByteArrayOutputStream()))
            .isInstanceOf(BadInputException.class)
            .hasMessage("attrs.data: byte offset 24: attrs section " + section + " runs past the end of the file"
                + " (24320 bytes)");
    }

    static Stream<Arguments> attrsSections() {
        // the fixture's attrs section is [120, +144)
        return Stream.of(
            Arguments.of(32, -8L, "[120, +18446744073709551608)"),
            Arguments.of(32, Long.MAX_VALUE - 7, "[120, +9223372036854775800)"),
            Arguments.of(24, -16L, "[18446744073709551600, +144)"),
            Arguments.of(24, Long.MAX_VALUE - 15, "[9223372036854775792, +144)"));
    }

    /**
     * Any value in any section field of the header: the file is either read or refused with a BadInputException,
     * never an internal error (an index out of bounds, an overflowed array size).
     */
    @ParameterizedTest
    @ValueSource(ints = {24, 32, 40, 48})
    void anySectionFieldValueIsReadOrRefusedInOneLine(int field) throws IOException {
        SplittableRandom rnd = new SplittableRandom(0xdf5 + field);
        long[] edges = {0, 1, 7, 8, 16, DATA_OFFSET, DATA_END, FILE_SIZE - 16, FILE_SIZE, FILE_SIZE + 1,
            Long.MAX_VALUE, Long.MIN_VALUE, -1, -16, Long.MAX_VALUE - DATA_OFFSET, Long.MAX_VALUE - DATA_END};
        long[] values = LongStream.concat(Arrays.stream(edges), LongStream.generate(rnd::nextLong).limit(40)
            .map(v -> rnd.nextBoolean() ? v : v >>> rnd.nextInt(1, 63))).toArray();
        for (long v : values) {
            Path p = patched("any.data", field, v);
            Throwable t = catchThrowable(() -> script(p, OutputStream.nullOutputStream()));
            if (t != null) {
                assertThat(t).as("field %d = %s", field, Long.toUnsignedString(v))
                    .isInstanceOf(BadInputException.class);
                assertThat(t.getMessage()).as("field %d = %s", field, Long.toUnsignedString(v))
                    .startsWith("any.data: ").doesNotContain("\n");
            }
        }
    }

    /**
     * perf record killed before it rewrote the header: data.size 0 and no feature table. perf 6.1 warns "data size
     * field is 0" and prints nothing; dfx prints every record up to the end of the file with one warning naming the
     * header field, and since every record is intact, that is all.
     */
    @Test
    void anUnterminatedRecordingIsReadToTheEndWithAWarning() throws IOException {
        byte[] b = Arrays.copyOf(fixture(), (int) DATA_END);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        bb.putLong(48, 0);
        for (int i = 0; i < 4; i++) {
            bb.putLong(72 + 8 * i, 0);
        }
        Path p = write("killed.data", b);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfSession s = PerfSession.open(p, "killed.data")) {
            Goldens.script(s, out, FIELDS);
            assertThat(s.warnings().lines()).containsExactly("killed.data: byte offset 48: data section size is 0"
                + " (was perf record properly terminated?); read the records from byte 264 to the end of the file"
                + " (19376 bytes)");
        }
        Goldens.assertSame("all samples", Goldens.read("task-clock-c100000-cpu.script-F.txt"), text(out));
    }

    /**
     * A file cut inside its attrs section: the attrs section, the first thing the cut took, is named with its
     * offset, size and the file's size, not the data section that went with it.
     */
    @Test
    void aFileCutInsideTheAttrsSectionNamesTheAttrsSection() throws IOException {
        Path p = write("attrcut.data", Arrays.copyOf(fixture(), 170));
        assertThatThrownBy(() -> script(p, new ByteArrayOutputStream()))
            .isInstanceOf(BadInputException.class)
            .hasMessage("attrcut.data: byte offset 24: attrs section [120, +144) truncated at EOF 170 (the section"
                + " ends at byte 264)");
    }

    /** A complete file whose data.size was zeroed: the feature sections after the records read as damage. */
    @Test
    void aZeroDataSizeBeforeFeatureSectionsNamesBothTheDamageAndTheCause() throws IOException {
        Path p = patched("zero.data", 48, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThatThrownBy(() -> script(p, out))
            .isInstanceOf(BadInputException.class)
            .hasMessageStartingWith("zero.data: byte offset " + DATA_END + ": record of type ")
            .hasMessageEndingWith(" (read on to the end of the file because the data section size at byte offset 48"
                + " is 0)");
        Goldens.assertSame("all samples", Goldens.read("task-clock-c100000-cpu.script-F.txt"), text(out));
    }

    /**
     * Type 0xffffffff, which perf 6.1 reads as -1 ("0x108 [0x50]: failed to process type: -1 [Invalid argument]",
     * exit 234, nothing printed), on the first record (the ID_INDEX, which no -F field needs): perf since 6.9 and
     * dfx skip it by its size with a warning, so every sample is printed.
     */
    @Test
    void recordTypeMinusOneIsSkippedByItsSizeWithAWarning() throws IOException {
        Path p = patched32("minus1.data", (int) DATA_OFFSET, -1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfSession s = PerfSession.open(p, "minus1.data")) {
            Goldens.script(s, out, FIELDS);
            assertThat(s.warnings().lines()).containsExactly("minus1.data: byte offset 264: record type 4294967295"
                + " (perf: -1) is unknown (size 80): skipped by its size (a record of a newer perf or kernel, or a"
                + " damaged type field)");
        }
        Goldens.assertSame("all samples", Goldens.read("task-clock-c100000-cpu.script-F.txt"), text(out));
    }

    private void script(Path p, OutputStream out) {
        try (PerfSession s = PerfSession.open(p, p.getFileName().toString())) {
            Goldens.script(s, out, FIELDS);
        }
    }

    private static String text(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] fixture() throws IOException {
        return Files.readAllBytes(Goldens.fixture(FIXTURE));
    }

    private Path patched(String name, int at, long value) throws IOException {
        byte[] b = fixture();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(at, value);
        return write(name, b);
    }

    private Path patched32(String name, int at, int value) throws IOException {
        byte[] b = fixture();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        return write(name, b);
    }

    private Path write(String name, byte[] b) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, b);
        return p;
    }
}
