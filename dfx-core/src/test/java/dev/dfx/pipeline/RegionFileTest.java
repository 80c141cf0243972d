package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file-backed region follows the documented {@link RegionLayout}: another mapper of the file finds the header,
 * the lane counters and every buffer block by file offset.
 */
class RegionFileTest {

    @Test
    void mappedFileHoldsTheDocumentedLayout(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("swimlane.dfxp");
        PipelineConfig.Builder b = PipelineConfig.builder("mapped").mappedFile(file);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 100, 3));
        b.lane(kind, 0);
        b.lane(kind, 1);
        SequenceChecker checker = new SequenceChecker(2, 0);
        try (Pipeline p = Pipeline.start(b.build(), checker)) {
            TestProducers.run(p, 10_000, 1);
            assertThat(p.stop().reconciled()).isTrue();
            assertThat(checker.problems()).isEmpty();

            // A second, independent mapping of the file, as another process would make it.
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                    Arena arena = Arena.ofConfined()) {
                MemorySegment f = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
                assertThat(f.get(Mem.INT, RegionLayout.H_MAGIC)).isEqualTo(0x50584644);
                assertThat(f.get(Mem.INT, RegionLayout.H_VERSION)).isEqualTo(RegionLayout.VERSION);
                assertThat(f.get(Mem.INT, RegionLayout.H_PRODUCERS)).isEqualTo(2);
                assertThat(f.get(Mem.INT, RegionLayout.H_LANES)).isEqualTo(2);
                assertThat(f.get(Mem.INT, RegionLayout.H_FLAGS) & 1).as("bases are file offsets").isEqualTo(1);
                long kindTable = f.get(Mem.LONG, RegionLayout.H_KIND_TABLE);
                assertThat(f.get(Mem.INT, kindTable)).isEqualTo(SequenceChecker.RECORD);
                assertThat(f.get(Mem.INT, kindTable + 4)).isEqualTo(100);
                long laneTable = f.get(Mem.LONG, RegionLayout.H_LANE_TABLE);
                assertThat(f.get(Mem.INT, laneTable + 32 + 4)).as("lane 1's producer").isEqualTo(1);
                long lanes = f.get(Mem.LONG, RegionLayout.H_LANE_STATES);
                RegionLayout layout = p.parts().layout;
                assertThat(lanes).isEqualTo(layout.lane(0));
                assertThat(f.get(Mem.LONG, layout.lane(1) + RegionLayout.L_TOTAL)).isEqualTo(10_000);
                assertThat(f.get(Mem.LONG, layout.lane(1) + RegionLayout.L_PUBLISHED)).isEqualTo(10_000);

                int blocks = f.get(Mem.INT, RegionLayout.H_BLOCK_COUNT);
                assertThat(blocks).isGreaterThanOrEqualTo(1);
                long blockTable = f.get(Mem.LONG, RegionLayout.H_BLOCK_TABLE);
                long base = f.get(Mem.LONG, blockTable + RegionLayout.B_BASE);
                long bytes = f.get(Mem.LONG, blockTable + RegionLayout.B_BYTES);
                assertThat(base % 4096).isZero();
                assertThat(base).isGreaterThanOrEqualTo(f.get(Mem.LONG, RegionLayout.H_REGION_BYTES));
                assertThat(base + bytes).isLessThanOrEqualTo(Files.size(file));
                assertThat(f.get(Mem.INT, blockTable + RegionLayout.B_BUFFERS)).isEqualTo(6);

                // The last record lane 1 wrote sits in the buffer named by its last ready-queue entry.
                long rq = layout.readyQueue(1);
                int tail = f.get(Mem.INT, rq + RegionLayout.RQ_TAIL);
                int last = (tail - 1 + layout.readyQueueSize()) % layout.readyQueueSize();
                long entry = layout.readyEntry(1, last);
                long handle = f.get(Mem.LONG, entry + RegionLayout.E_HANDLE);
                int count = f.get(Mem.INT, entry + RegionLayout.E_COUNT);
                long blockEntry = blockTable + (long) RegionLayout.BLOCK_ENTRY_BYTES * ((handle >>> 32) - 1);
                long at = f.get(Mem.LONG, blockEntry + RegionLayout.B_BASE)
                        + (int) handle * f.get(Mem.LONG, blockEntry + RegionLayout.B_BUFFER_BYTES)
                        + (long) (count - 1) * SequenceChecker.RECORD;
                assertThat(f.get(Mem.LONG, at)).as("record number").isEqualTo(9_999);
                assertThat(f.get(Mem.LONG, at + 8)).as("lane").isEqualTo(1);
            }
        }
    }
}
