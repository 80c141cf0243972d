package dev.dfx.perf.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link FileRecordSource} reads records in chunks: records that a chunk's end cuts, AUXTRACE payloads inside a chunk
 * and past it, and records kept after the reader moved on (as a reordering queue keeps them) must read exactly what
 * the file holds. Each record's words are a function of its index, written by this test, so every byte read is
 * checked against what was written; the offsets are the ones the writer put the records at.
 */
class FileRecordSourceTest {
    /** The smallest chunk a reader may use: a record's largest size, rounded up. */
    private static final int SMALL_CHUNK = 1 << 16;

    @TempDir
    Path dir;

    /** What the test wrote: each record's file offset, size, whether it is an AUXTRACE record, and its payload size. */
    private record Written(long offset, int size, boolean aux, long trailing) {
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void everyRecordReadsWhatWasWrittenAcrossChunkEnds(long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        Path file = dir.resolve("records.data");
        List<Written> written = write(file, rnd, 3000, 0, true);
        for (int chunk : new int[] {SMALL_CHUNK, SMALL_CHUNK + 8 * rnd.nextInt(1, 4096), FileRecordSource.CHUNK}) {
            try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
                MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
                FileRecordSource src = new FileRecordSource(ch, mapped, Endian.LITTLE, 0, ch.size(), 0,
                    new InputErrors("records.data", 0), chunk);
                List<PerfRecord> read = new ArrayList<>();
                for (PerfRecord r = src.next(); r != null; r = src.next()) {
                    check(r, read.size(), written.get(read.size()), 0, "as read, chunk " + chunk);
                    read.add(r);
                }
                assertThat(read).hasSameSizeAs(written);
                // every record again, now that the reader has gone past all of them
                for (int i = 0; i < read.size(); i++) {
                    check(read.get(i), i, written.get(i), 0, "after the end, chunk " + chunk);
                }
            }
        }
    }

    /** Records are heap views of their chunk: they stay readable after the file is closed. */
    @Test
    void recordsStayReadableAfterTheFileIsClosed() throws IOException {
        Path file = dir.resolve("records.data");
        List<Written> written = write(file, new SplittableRandom(9), 2000, 16, true);
        List<PerfRecord> read = new ArrayList<>();
        try (PerfFile f = PerfFile.open(file, "records.data")) {
            RecordSource src = f.rawRecords();
            for (PerfRecord r = src.next(); r != null; r = src.next()) {
                if (r.type() != RecordType.AUXTRACE || r.trailingBytes() <= FileRecordSource.CHUNK / 2) {
                    read.add(r); // a large payload stays a slice of the mapping, valid while the file is open
                }
            }
        }
        assertThat(read).isNotEmpty();
        for (PerfRecord r : read) {
            int i = indexOf(written, r.fileOffset() + 16); // a pipe-format offset counts from after its header
            check(r, i, written.get(i), 16, "after close");
        }
    }

    /**
     * A file cut short after it was opened: the records before the cut are returned, and the first one the cut took
     * is named with the file's new and old sizes.
     */
    @ParameterizedTest(name = "cut at {0} of the records")
    @ValueSource(doubles = {0.0, 0.3, 0.77})
    void aFileCutWhileReadNamesTheFirstRecordTheCutTook(double at) throws IOException {
        Path file = dir.resolve("records.data");
        List<Written> written = write(file, new SplittableRandom(11), 3000, 0, false);
        long size;
        try (FileChannel ch = FileChannel.open(file)) {
            size = ch.size();
        }
        long cut = 3 + (long) (at * size); // inside a record's header or body
        Written first = written.stream().filter(w -> w.offset() + w.size() > cut).findFirst().orElseThrow();
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
            MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            FileRecordSource src = new FileRecordSource(ch, mapped, Endian.LITTLE, 0, ch.size(), 0,
                new InputErrors("records.data", 0), SMALL_CHUNK);
            try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
                w.truncate(cut);
            }
            int[] n = {0};
            assertThatThrownBy(() -> {
                for (PerfRecord r = src.next(); r != null; r = src.next()) {
                    assertThat(r.fileOffset()).isEqualTo(written.get(n[0]++).offset());
                }
            }).isInstanceOf(BadInputException.class)
                .hasMessage("records.data: byte offset " + first.offset() + ": the file changed while dfx read it (cut"
                    + " short to " + cut + " of its " + size + " bytes after it was opened); nothing after that point"
                    + " was read");
            assertThat(n[0]).isEqualTo(written.indexOf(first));
        }
    }

    /**
     * A file cut below what the reader already holds: the records it holds are returned, and the line names the size
     * the file has now, not where the reader stopped.
     */
    @Test
    void aFileCutBelowTheReadPositionNamesItsNewSize() throws IOException {
        Path file = dir.resolve("records.data");
        List<Written> written = write(file, new SplittableRandom(12), 3000, 0, false);
        long size;
        try (FileChannel ch = FileChannel.open(file)) {
            size = ch.size();
        }
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
            MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            FileRecordSource src = new FileRecordSource(ch, mapped, Endian.LITTLE, 0, ch.size(), 0,
                new InputErrors("records.data", 0), SMALL_CHUNK);
            int n = 0;
            while (written.get(n).offset() < size / 2) {
                assertThat(src.next().fileOffset()).isEqualTo(written.get(n++).offset());
            }
            try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
                w.truncate(1000);
            }
            int[] more = {n};
            assertThatThrownBy(() -> {
                for (PerfRecord r = src.next(); r != null; r = src.next()) {
                    assertThat(r.fileOffset()).isEqualTo(written.get(more[0]++).offset());
                }
            }).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith("records.data: byte offset ")
                .hasMessageEndingWith(": the file changed while dfx read it (cut short to 1000 of its " + size
                    + " bytes after it was opened); nothing after that point was read")
                .hasMessageContaining("byte offset " + written.get(more[0]).offset() + ":");
        }
    }

    /**
     * An AUXTRACE payload size near 2^63: past the end of the data, named as such (its sum with the offset overflows).
     */
    @ParameterizedTest(name = "payload size {0}")
    @ValueSource(longs = {0x7FFF_FFFF_FFFF_FF00L, Long.MAX_VALUE, -1L, 1L << 40})
    void aPayloadPastTheEndIsNamedAsTruncated(long payload) throws IOException {
        Path file = dir.resolve("aux.data");
        ByteBuffer b = ByteBuffer.allocate(64 + 48).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(RecordType.SAMPLE).putShort((short) 0).putShort((short) 64);
        b.position(64);
        b.putInt(RecordType.AUXTRACE).putShort((short) 0).putShort((short) 48).putLong(payload);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(b.position(0));
        }
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
            MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            FileRecordSource src = new FileRecordSource(ch, mapped, Endian.LITTLE, 0, ch.size(), 0,
                new InputErrors("aux.data", 0));
            assertThat(src.next().size()).isEqualTo(64);
            assertThatThrownBy(src::next).isInstanceOf(BadInputException.class)
                .hasMessage("aux.data: byte offset 112: truncated AUXTRACE payload of " + Long.toUnsignedString(payload)
                    + " bytes: the data section ends at byte 112");
        }
    }

    /**
     * Pipe-mode tracing data larger than a chunk is read into an array of its own: its bytes as written, and a cut
     * inside it while it is read is named as a change of the file, not parsed as the zeros past the file's end.
     */
    @ParameterizedTest(name = "cut: {0}")
    @ValueSource(booleans = {false, true})
    void tracingDataLargerThanAChunkIsReadWhole(boolean cut) throws IOException {
        Path file = dir.resolve("tracing.data");
        int payload = 3 * SMALL_CHUNK + 8;
        ByteBuffer b = ByteBuffer.allocate(16 + payload + 16).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(RecordType.HEADER_TRACING_DATA).putShort((short) 0).putShort((short) 16).putInt(payload).putInt(0);
        for (int i = 0; i < payload / 8; i++) {
            b.putLong(word(7, i));
        }
        b.putInt(RecordType.SAMPLE).putShort((short) 0).putShort((short) 16).putLong(42);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(b.flip());
        }
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
            MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            long size = ch.size();
            FileRecordSource src = new FileRecordSource(ch, mapped, Endian.LITTLE, 0, size, 0,
                new InputErrors("tracing.data", 0), SMALL_CHUNK);
            if (cut) {
                try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    w.truncate(2 * SMALL_CHUNK);
                }
                assertThatThrownBy(src::next).isInstanceOf(BadInputException.class)
                    .hasMessage("tracing.data: byte offset 0: the file changed while dfx read it (cut short to "
                        + 2 * SMALL_CHUNK + " of its " + size + " bytes after it was opened); nothing after that point"
                        + " was read");
                return;
            }
            PerfRecord r = src.next();
            assertThat(r.trailingBytes()).isEqualTo(payload);
            assertThat(r.trailing().isNative()).as("a heap array").isFalse();
            for (int i = 0; i < payload / 8; i++) {
                assertThat(Endian.LITTLE.u64(r.trailing(), 8L * i)).as("word %d", i).isEqualTo(word(7, i));
            }
            assertThat(src.next().u64(8)).isEqualTo(42);
            assertThat(src.next()).isNull();
        }
    }

    /**
     * Checks record {@code i}'s header, offset and every word of its body and payload against what was written;
     * {@code bias}: bytes of a pipe-mode header, which the offsets perf prints do not count.
     */
    private static void check(PerfRecord r, int i, Written w, long bias, String when) {
        assertThat(r.fileOffset()).as("record %d offset, %s", i, when).isEqualTo(w.offset() - bias);
        assertThat(r.size()).as("record %d size, %s", i, when).isEqualTo(w.size());
        assertThat(r.trailingBytes()).as("record %d payload, %s", i, when).isEqualTo(w.trailing());
        int from = w.aux() ? 16 : 8; // an AUXTRACE record's payload size is at byte 8
        for (int at = from; at + 8 <= w.size(); at += 8) {
            assertThat(r.u64(at)).as("record %d word at %d, %s", i, at, when).isEqualTo(word(i, at));
        }
        if (w.trailing() > 0) {
            MemorySegment t = r.trailing();
            for (long at = 0; at + 8 <= w.trailing(); at += 8) {
                assertThat(Endian.LITTLE.u64(t, at)).as("record %d payload word at %d, %s", i, at, when)
                    .isEqualTo(word(i, 1_000_000 + at));
            }
        }
    }

    private static int indexOf(List<Written> written, long offset) {
        for (int i = 0; i < written.size(); i++) {
            if (written.get(i).offset() == offset) {
                return i;
            }
        }
        throw new AssertionError("no record written at " + offset);
    }

    private static long word(int record, long at) {
        return record * 0x9E3779B97F4A7C15L + at;
    }

    /**
     * Writes {@code records} records of random sizes (8 to 65,528 bytes, most of them small, as in a recording), with
     * {@code aux} one in 50 an AUXTRACE record with a payload of up to 300 KiB; {@code header}: 16 for a pipe-mode
     * header first, else 0.
     */
    private static List<Written> write(Path file, SplittableRandom rnd, int records, int header, boolean withAux)
        throws IOException {
        List<Written> out = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            long at = 0;
            if (header > 0) {
                ByteBuffer h = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                h.putLong(FileHeader.MAGIC2).putLong(16); // struct perf_pipe_file_header {u64 magic; u64 size}
                at += ch.write(h.flip());
            }
            for (int i = 0; i < records; i++) {
                boolean aux = withAux && rnd.nextInt(50) == 0;
                int size = aux ? 48 : 8 * (rnd.nextInt(10) == 0 ? rnd.nextInt(1, 8192) : rnd.nextInt(1, 40));
                long trailing = aux ? 8L * rnd.nextInt(0, 300 * 128) : 0;
                ByteBuffer b = ByteBuffer.allocate((int) (size + trailing)).order(ByteOrder.LITTLE_ENDIAN);
                b.putInt(aux ? RecordType.AUXTRACE : RecordType.SAMPLE).putShort((short) 0).putShort((short) size);
                if (aux) {
                    b.putLong(trailing); // struct perf_record_auxtrace: u64 size first
                }
                while (b.position() < size) {
                    b.putLong(word(i, b.position()));
                }
                for (long t = 0; t < trailing; t += 8) {
                    b.putLong(word(i, 1_000_000 + t));
                }
                out.add(new Written(at, size, aux, trailing));
                at += ch.write(b.flip());
            }
        }
        return out;
    }
}
