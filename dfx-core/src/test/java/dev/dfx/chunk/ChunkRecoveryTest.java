package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.TASK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** A file whose writer died is readable up to its last complete chunk. */
class ChunkRecoveryTest {
    @TempDir
    Path dir;

    @Test
    void everyTruncationKeepsExactlyTheChunksThatEndBeforeTheCut() throws Exception {
        Path file = dir.resolve("full.dfx");
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TASK))) {
            for (int seq = 0; seq < 6; seq++) {
                w.append(0, seq % 2, seq / 2, TestChunks.taskRecords(seq % 2, seq / 2, seq + 1, seq * 100L), seq + 1);
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
                        .contains("read " + expected.size() + " complete chunks");
                if (cut >= indexOffset + 8) { // the index magic is there
                    assertThat(rec.reason()).contains("an unfinished chunk index starts here");
                }
                for (ChunkInfo c : r.chunks()) {
                    assertThat(r.records(c).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(
                            Arrays.copyOfRange(full, (int) c.payloadOffset(), (int) (c.payloadOffset()
                                    + c.payloadLength())));
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
