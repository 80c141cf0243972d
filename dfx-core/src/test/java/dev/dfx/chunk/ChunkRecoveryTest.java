package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.TASK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A file whose writer died is readable up to its last complete chunk. */
class ChunkRecoveryTest {
    @TempDir
    Path dir;

    /** @return the task records of chunk {@code seq}, each padded with zeros to {@code size} bytes */
    private static MemorySegment records(int seq, int size) {
        MemorySegment tasks = TestChunks.taskRecords(seq % 2, seq / 2, seq + 1, seq * 100L);
        MemorySegment out = MemorySegment.ofArray(new byte[(seq + 1) * size]);
        for (int i = 0; i <= seq; i++) {
            MemorySegment.copy(tasks, i * 32L, out, (long) i * size, 32);
        }
        return out;
    }

    /** With 32-byte records stored as they are, and with 512-byte sparse records stored zero-block encoded. */
    @ParameterizedTest
    @ValueSource(ints = {32, 512})
    void everyTruncationKeepsExactlyTheChunksThatEndBeforeTheCut(int recordSize) throws Exception {
        Path file = dir.resolve("full.dfx");
        BufferKind kind = BufferKind.timed(0, TASK.name(), recordSize, 8);
        List<byte[]> written = new ArrayList<>();
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(kind))) {
            for (int seq = 0; seq < 6; seq++) {
                written.add(records(seq, recordSize).toArray(ValueLayout.JAVA_BYTE));
                w.append(0, seq % 2, seq / 2, records(seq, recordSize), seq + 1);
            }
        }
        byte[] full = Files.readAllBytes(file);
        List<ChunkInfo> all;
        long headerLength;
        try (ChunkReader r = ChunkReader.open(file)) {
            all = r.chunks();
            headerLength = all.getFirst().offset();
        }
        long indexOffset = all.getLast().end();

        for (int cut = (int) headerLength; cut < full.length; cut++) {
            Path torn = TestChunks.copy(dir, "cut" + cut + ".dfx", Arrays.copyOf(full, cut));
            try (ChunkReader r = ChunkReader.open(torn)) {
                int finalCut = cut;
                List<ChunkInfo> expected = all.stream().filter(c -> c.end() <= finalCut).toList();
                assertThat(r.complete()).as("cut at %d", cut).isFalse();
                assertThat(r.chunks()).as("cut at %d", cut).isEqualTo(expected);
                long stop = expected.isEmpty() ? headerLength : expected.getLast().end();
                Recovery rec = r.recovery().orElseThrow();
                assertThat(rec.stoppedAt()).isEqualTo(stop);
                assertThat(rec.ignoredBytes()).isEqualTo(cut - stop);
                assertThat(rec.reason()).startsWith("no chunk index (the writer did not close the file)")
                        .contains("read " + expected.size() + (expected.size() == 1 ? " complete chunk " : " complete"
                                + " chunks "));
                if (cut >= indexOffset + 8) { // the index magic is there
                    assertThat(rec.reason()).contains("an unfinished chunk index starts here");
                }
                for (int i = 0; i < r.chunks().size(); i++) {
                    ChunkInfo c = r.chunks().get(i);
                    assertThat(c.zeroBlocks()).isEqualTo(recordSize > 32);
                    assertThat(r.records(c).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(written.get(i));
                }
            }
            Files.delete(torn);
        }
    }

    @Test
    void aFileCutInsideItsHeaderIsBadInput() throws Exception {
        Path file = dir.resolve("full.dfx");
        ChunkWriter.create(file, "swimlane", List.of(TASK)).close();
        byte[] full = Files.readAllBytes(file);
        for (int cut : new int[]{0, 7, 23, 40}) {
            Path torn = TestChunks.copy(dir, "cut" + cut + ".dfx", Arrays.copyOf(full, cut));
            assertThatThrownBy(() -> ChunkReader.open(torn)).isInstanceOf(BadInputException.class)
                    .hasMessageStartingWith(torn.toString() + ": byte offset " + cut + ": file ends inside");
        }
    }

    @Test
    void aWriterThatIsStillOpenLeavesEveryFlushedChunkReadable() throws Exception {
        Path file = dir.resolve("live.dfx");
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TASK))) {
            for (int seq = 0; seq < 5; seq++) {
                w.append(0, 0, seq, TestChunks.taskRecords(0, seq, 10, seq * 1000L), 10);
            }
            w.flush();
            w.append(0, 0, 5, TestChunks.taskRecords(0, 5, 10, 5000), 10); // staged, not yet in the file
            try (ChunkReader r = ChunkReader.open(file)) {
                assertThat(r.complete()).isFalse();
                assertThat(r.chunks()).extracting(ChunkInfo::seq).containsExactly(0L, 1L, 2L, 3L, 4L);
                assertThat(r.recovery().orElseThrow().ignoredBytes()).isZero();
            }
        }
        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.complete()).isTrue();
            assertThat(r.chunks()).hasSize(6);
        }
    }
}
