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

/**
 * {@link SegmentRecordSource} drops the mapped pages far behind its read position. Records read before their pages
 * were dropped must still read what the file holds (a record waiting in the reordering queue is used after the reader
 * has moved on): each record of a file several drop steps long carries its own sequence number, checked as it is read
 * and again, for records kept from the start, the middle and the end, once the whole file has been read.
 */
class DroppedPagesTest {
    private static final int RECORD = 64;

    @TempDir
    Path dir;

    @Test
    void recordsReadBeforeTheirPagesWereDroppedStillReadTheFile() throws IOException {
        long bytes = 2 * (SegmentRecordSource.RESIDENT_BEHIND + SegmentRecordSource.UNLOAD_STEP) + 3 * RECORD;
        int records = (int) (bytes / RECORD);
        Path file = dir.resolve("records.data");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
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
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file)) {
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            SegmentRecordSource src = new SegmentRecordSource(seg, Endian.LITTLE, 0, seg.byteSize(), 0,
                new InputErrors("records.data", 0));
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
            for (PerfRecord r : kept) {
                long i = r.fileOffset() / RECORD;
                for (int w = 0; w < (RECORD - 8) / 8; w++) {
                    assertThat(r.u64(8 + 8 * w)).as("record %d, word %d, after the reader passed", i, w)
                        .isEqualTo(i * 31L + w);
                }
            }
        }
    }
}
