package dev.dfx.perf.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.data.Endian;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SegmentRecordSource} drops the mapped pages far behind its read position and, where the segment is shared
 * between threads, has a pager thread load them ahead of it ({@link MappedPager}). Records read before their pages
 * were dropped must still read what the file holds (a record waiting in the reordering queue is used after the reader
 * has moved on): each record of a file several drop steps long carries its own sequence number, checked as it is read
 * and again, for records kept from the start, the middle and the end, once the whole file has been read. The pager
 * thread ends with the data, or when the file is closed before the reader reached the end.
 */
class DroppedPagesTest {
    private static final int RECORD = 64;
    private static final long BYTES = 2 * (MappedPager.RESIDENT_BEHIND + MappedPager.UNLOAD_STEP) + 3 * RECORD;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "shared arena: {0}")
    @ValueSource(booleans = {false, true})
    void recordsReadBeforeTheirPagesWereDroppedStillReadTheFile(boolean shared) throws IOException {
        int records = (int) (BYTES / RECORD);
        Path file = write(records, false);
        try (Arena arena = shared ? Arena.ofShared() : Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            SegmentRecordSource src = new SegmentRecordSource(seg, Endian.LITTLE, 0, seg.byteSize(), 0,
                new InputErrors("records.data", 0));
            assertThat(pagers()).as("pager threads while reading").isEqualTo(shared ? 1 : 0);
            List<PerfRecord> kept = new ArrayList<>();
            int n = 0;
            for (PerfRecord r = src.next(); r != null; r = src.next()) {
                assertThat(r.u64(8)).as("record %d as read", n).isEqualTo(n * 31L);
                if (n < 1000 || n % 50_000 == 0 || n >= records - 10) {
                    kept.add(r);
                }
                n++;
            }
            assertThat(n).isEqualTo(records);
            assertThat(pagers()).as("pager threads after the last record").isZero();
            for (PerfRecord r : kept) {
                long i = r.fileOffset() / RECORD;
                for (int w = 0; w < (RECORD - 8) / 8; w++) {
                    assertThat(r.u64(8 + 8 * w)).as("record %d, word %d, after the reader passed", i, w)
                        .isEqualTo(i * 31L + w);
                }
            }
        }
    }

    @Test
    void closingTheFileBeforeTheEndStopsThePager() throws IOException {
        Path file = write((int) (BYTES / RECORD), true);
        try (PerfFile f = PerfFile.open(file, "records.data")) {
            RecordSource src = f.rawRecords();
            assertThat(src.next().u64(8)).isZero();
            assertThat(src.next().u64(8)).isEqualTo(31L);
            assertThat(pagers()).as("pager threads while reading").isEqualTo(1);
        }
        assertThat(pagers()).as("pager threads after close").isZero();
    }

    /**
     * A file cut short after it was mapped: the pager, which maps ahead, meets the missing pages first (the JVM's
     * InternalError for SIGBUS); that ends the pager alone, and the reader names the cut where it meets it.
     */
    @Test
    void aFileCutShortUnderTheMappingEndsThePagerAndTheReaderNamesTheCut() throws Exception {
        int records = (int) (BYTES / RECORD);
        Path file = write(records, true);
        int kept = 65_536; // the cut 4 MiB and 16 bytes in: inside a page, which reads as zeros past it
        List<Throwable> uncaught = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread.UncaughtExceptionHandler was = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        try (PerfFile f = PerfFile.open(file, "records.data")) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(16 + (long) kept * RECORD);
            }
            RecordSource src = f.rawRecords();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (pagers() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10); // the pager maps 8 MiB ahead of the start: it reaches the cut and ends
            }
            assertThat(pagers()).as("pager threads once past the cut").isZero();
            int n = 0;
            try {
                for (PerfRecord r = src.next(); r != null; r = src.next()) {
                    assertThat(r.u64(8)).as("record %d as read", n).isEqualTo(n * 31L);
                    n++;
                }
                throw new AssertionError("read to the end of a file cut after " + kept + " records");
            } catch (dev.dfx.error.BadInputException e) {
                assertThat(e.getMessage()).contains("byte offset " + (16 + (long) kept * RECORD), "size 0");
            }
            assertThat(n).isEqualTo(kept);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(was);
        }
        assertThat(uncaught).as("throwables that ended a thread").isEmpty();
    }

    private static long pagers() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("dfx-pager") && t.isAlive()).count();
    }

    /** A file of records (SAMPLE headers, each a sequence of words); {@code pipe}: after a pipe-mode header. */
    private Path write(int records, boolean pipe) throws IOException {
        Path file = dir.resolve("records.data");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
            if (pipe) {
                b.putLong(FileHeader.MAGIC2).putLong(16); // struct perf_pipe_file_header {u64 magic; u64 size}
            }
            for (int i = 0; i < records; i++) {
                if (b.remaining() < RECORD) {
                    ch.write(b.flip());
                    b.clear();
                }
                b.putInt(9).putShort((short) 0).putShort((short) RECORD); // a SAMPLE header
                for (int w = 0; w < (RECORD - 8) / 8; w++) {
                    b.putLong(i * 31L + w);
                }
            }
            ch.write(b.flip());
        }
        return file;
    }
}
