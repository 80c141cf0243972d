package dev.dfx.perf.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.Goldens;
import dev.dfx.perf.session.PerfSession;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Corrupted copies of fixtures (written to a temp dir): each is refused with one {@link BadInputException}
 * line naming the file and byte offset, and everything readable before the damage is still delivered.
 * Expected offsets come from an independent walk of the record sizes in the test.
 */
class BadInputTest {
    @TempDir
    Path dir;

    @Test
    void wrongMagicIsRefusedAtOffsetZero() throws IOException {
        byte[] b = fixture("irq-a.data");
        System.arraycopy("XXXXXXXX".getBytes(StandardCharsets.US_ASCII), 0, b, 0, 8);
        Path p = write("magic.data", b);
        assertThatThrownBy(() -> PerfSession.open(p, "magic.data"))
            .isInstanceOf(BadInputException.class)
            .hasMessageStartingWith("magic.data: byte offset 0: not a perf.data file: the magic is 0x");
    }

    @Test
    void truncatedDataSectionPrintsWhatWasReadThenFailsAtTheCut() throws IOException {
        byte[] full = fixture("task-clock-c100000-cpu.data");
        int cut = 12000;
        long straddling = recordStraddling(full, dataOffset(full), cut);
        Path p = write("trunc.data", Arrays.copyOf(full, cut));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThatThrownBy(() -> script(p, bytes, "comm,tid,pid,cpu,time,event,period"))
            .isInstanceOf(BadInputException.class)
            .hasMessage("trunc.data: byte offset " + straddling + ": truncated SAMPLE record of 40 bytes: data section"
                + " truncated at EOF " + cut + " (the header declares data up to byte 19376)");
        String printed = bytes.toString(StandardCharsets.ISO_8859_1);
        Set<String> golden = Set.of(Goldens.read("task-clock-c100000-cpu.script-F.txt").split("\n"));
        String[] lines = printed.split("\n");
        assertThat(lines.length).isGreaterThan(200);
        assertThat(golden).contains(lines);
    }

    @Test
    void recordRunningPastTheSectionIsRefusedWithItsOffset() throws IOException {
        byte[] b = fixture("irq-a.data");
        int at = recordStart(b, dataOffset(b), 5);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(at + 6, (short) 0xfff0);
        Path p = write("bigsize.data", b);
        assertThatThrownBy(() -> script(p, new ByteArrayOutputStream(), null))
            .isInstanceOf(BadInputException.class)
            .hasMessageStartingWith("bigsize.data: byte offset " + at + ": truncated COMM record of 65520 bytes");
    }

    @Test
    void recordSmallerThanItsHeaderIsRefused() throws IOException {
        byte[] b = fixture("irq-a.data");
        int at = recordStart(b, dataOffset(b), 5);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(at + 6, (short) 4);
        Path p = write("small.data", b);
        assertThatThrownBy(() -> script(p, new ByteArrayOutputStream(), null))
            .isInstanceOf(BadInputException.class)
            .hasMessage("small.data: byte offset " + at + ": record of type 3 has size 4, expected at least 8"
                + " (perf_event_header)");
    }

    /** A type past 2^31 is named as the u32 it is, as an unknown type is named elsewhere, not as a negative number. */
    @Test
    void recordSmallerThanItsHeaderIsNamedByItsUnsignedType() throws IOException {
        byte[] b = fixture("irq-a.data");
        int at = recordStart(b, dataOffset(b), 5);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, 0xD5435363).putShort(at + 6, (short) 0);
        Path p = write("hightype.data", b);
        assertThatThrownBy(() -> script(p, new ByteArrayOutputStream(), null))
            .isInstanceOf(BadInputException.class)
            .hasMessage("hightype.data: byte offset " + at + ": record of type 3577959267 has size 0, expected at"
                + " least 8 (perf_event_header)");
    }

    @Test
    void unknownFeatureBitIsSkipped() throws IOException {
        byte[] b = fixture("irq-a.data");
        b[72 + 8 + 4] |= 0x10; // feature bit 100: after every known feature in the table
        Path p = write("feat.data", b);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        script(p, bytes, null);
        Goldens.assertSame("irq-a.script.txt with feature bit 100", Goldens.read("irq-a.script.txt"),
            bytes.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void unknownSampleTypeBitsAreRefusedAtTheFirstSample() throws IOException {
        byte[] b = fixture("irq-a.data");
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int attrs = (int) bb.getLong(24);
        int entry = (int) bb.getLong(16);
        int n = (int) (bb.getLong(32) / entry);
        for (int i = 0; i < n; i++) {
            int off = attrs + i * entry + 24;
            bb.putLong(off, bb.getLong(off) | (1L << 40));
        }
        Path p = write("bits.data", b);
        assertThatThrownBy(() -> script(p, new ByteArrayOutputStream(), null))
            .isInstanceOf(BadInputException.class)
            .hasMessageMatching("bits.data: byte offset \\d+: the SAMPLE record's event has sample_type 0x10000010587"
                + " with unknown bits 0x10000000000; .*");
    }

    /**
     * A pipe-mode stream cut inside a record, read from standard input or saved in a file: the records before the cut
     * are delivered, and the cut is named alike, at the record's offset with how many of its bytes came.
     */
    @ParameterizedTest(name = "from {0}")
    @ValueSource(strings = {"stream", "file"})
    void truncatedPipeStreamFailsAfterItsReadableRecords(String from) throws IOException {
        byte[] full = fixture("sched-proc.pipe.data");
        byte[] cut = Arrays.copyOf(full, full.length - 100);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThatThrownBy(() -> {
            try (PerfSession s = openPipe(from, cut)) {
                Goldens.script(s, bytes, null);
            }
        }).isInstanceOf(BadInputException.class)
            // a walk of the record sizes (tracing data included) puts the 96-byte SAMPLE that the cut at 15928
            // splits at byte 15860, so 68 of its bytes are there
            .hasMessage("pipe: byte offset 15860: truncated SAMPLE record of 96 bytes: the " + from + " ended after 68"
                + " bytes of it");
        assertThat(bytes.toString(StandardCharsets.ISO_8859_1)).contains("sched:sched_process_exec:");
    }

    /** A cut one byte into a record's header: that byte, in the singular. */
    @ParameterizedTest(name = "from {0}")
    @ValueSource(strings = {"stream", "file"})
    void aCutOneByteIntoARecordCountsOneByte(String from) throws IOException {
        byte[] cut = Arrays.copyOf(fixture("sched-proc.pipe.data"), 15861); // the SAMPLE at 15860, above
        assertThatThrownBy(() -> {
            try (PerfSession s = openPipe(from, cut)) {
                Goldens.script(s, new ByteArrayOutputStream(), null);
            }
        }).isInstanceOf(BadInputException.class)
            .hasMessage("pipe: byte offset 15860: truncated record header (8 bytes): the " + from + " ended after 1"
                + " byte of it");
    }

    /**
     * A stream cut inside the TRACING_DATA record's payload (the formats that follow the 12-byte record), from standard
     * input or saved in a file: named where the payload starts, with the payload's size and how many of its bytes
     * came, as for a cut record.
     */
    @ParameterizedTest(name = "from {0}")
    @ValueSource(strings = {"stream", "file"})
    void aPipeStreamCutInsideItsTracingDataNamesThePayloadsBytes(String from) throws IOException {
        byte[] full = fixture("sched-proc.pipe.data");
        ByteBuffer bb = ByteBuffer.wrap(full).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16;  // after the pipe header: records of u32 type, u16 misc, u16 size
        while (bb.getInt(at) != 66) {  // PERF_RECORD_HEADER_TRACING_DATA
            at += Short.toUnsignedInt(bb.getShort(at + 6));
        }
        int size = Short.toUnsignedInt(bb.getShort(at + 6));
        long payload = Integer.toUnsignedLong(bb.getInt(at + 8));
        byte[] cut = Arrays.copyOf(full, at + size + 100);
        assertThatThrownBy(() -> {
            try (PerfSession s = openPipe(from, cut)) {
                Goldens.script(s, new ByteArrayOutputStream(), null);
            }
        }).isInstanceOf(BadInputException.class)
            .hasMessage("pipe: byte offset " + (at + size) + ": truncated TRACING_DATA payload of " + payload
                + " bytes: the " + from + " ended after 100 bytes of it");
    }

    /** @return a session of pipe-mode {@code bytes}, named "pipe": from a stream, or from a file that holds them */
    private PerfSession openPipe(String from, byte[] bytes) throws IOException {
        return from.equals("stream") ? PerfSession.open(new ByteArrayInputStream(bytes), "pipe")
            : PerfSession.open(write("cut.pipe.data", bytes), "pipe");
    }

    /** A stream that ends inside the 16-byte pipe header (an empty standard input, /dev/null) says how much came. */
    @ParameterizedTest
    @ValueSource(ints = {0, 7, 15})
    void aStreamShorterThanThePipeHeaderSaysHowMuchCame(int length) throws IOException {
        byte[] head = Arrays.copyOf(fixture("sched-proc.pipe.data"), length);
        assertThatThrownBy(() -> PerfSession.open(new ByteArrayInputStream(head), "pipe").close())
            .isInstanceOf(BadInputException.class)
            .hasMessage("pipe: byte offset 0: truncated pipe header (" + length + " of 16 bytes); expected a"
                + " pipe-mode perf.data stream");
    }

    /** A stream the system cannot read (a directory given as standard input: EISDIR) is named with the reason. */
    @Test
    void aStreamThatCannotBeReadIsNamedWithTheSystemsReason() {
        InputStream directory = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("Is a directory");
            }
        };
        assertThatThrownBy(() -> PerfSession.open(directory, "pipe").close())
            .isInstanceOf(BadInputException.class)
            .hasMessage("pipe: byte offset 0: cannot read the stream: Is a directory; expected a pipe-mode perf.data"
                + " stream");
    }

    /**
     * A read that fails midway ends the stream as a cut does: the records before it are delivered, then one line
     * names the byte offset the stream could not be read from (where the bytes it gave end) and the system's reason;
     * inside a record header, a record and the payload of the tracing data alike.
     */
    @ParameterizedTest
    @ValueSource(ints = {20, 4000, 8014, -100})
    void aStreamWhoseReadFailsMidwayKeepsTheRecordsBeforeIt(int failAt) throws IOException {
        byte[] full = fixture("sched-proc.pipe.data");
        int good = failAt >= 0 ? failAt : full.length + failAt;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThatThrownBy(() -> {
            try (PerfSession s = PerfSession.open(failingAfter(full, good), "pipe")) {
                Goldens.script(s, bytes, null);
            }
        }).isInstanceOf(BadInputException.class)
            .hasMessage("pipe: byte offset " + good + ": cannot read the stream: Input/output error");
        if (failAt < 0) {
            assertThat(bytes.toString(StandardCharsets.ISO_8859_1)).contains("sched:sched_process_exec:");
        }
    }

    /** @return a stream of the first {@code good} bytes of {@code data} whose next read fails */
    private static InputStream failingAfter(byte[] data, int good) {
        return new InputStream() {
            private int at;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (at == good) {
                    throw new IOException("Input/output error");
                }
                int n = Math.min(len, good - at);
                System.arraycopy(data, at, b, off, n);
                at += n;
                return n;
            }
        };
    }

    private void script(Path p, OutputStream out, String fields) {
        try (PerfSession s = PerfSession.open(p, p.getFileName().toString())) {
            Goldens.script(s, out, fields);
        }
    }

    private static byte[] fixture(String name) throws IOException {
        return Files.readAllBytes(Goldens.fixture(name));
    }

    private Path write(String name, byte[] b) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, b);
        return p;
    }

    private static int dataOffset(byte[] b) {
        return (int) ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(40);
    }

    /** @return the offset of the {@code index}-th record (from 0) of the data section */
    private static int recordStart(byte[] b, int data, int index) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int p = data;
        for (int i = 0; i < index; i++) {
            p += bb.getShort(p + 6) & 0xffff;
        }
        return p;
    }

    /** @return the offset of the record that the cut at {@code cut} splits */
    private static long recordStraddling(byte[] b, int data, int cut) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int p = data;
        while (p + (bb.getShort(p + 6) & 0xffff) <= cut) {
            p += bb.getShort(p + 6) & 0xffff;
        }
        return p;
    }
}
