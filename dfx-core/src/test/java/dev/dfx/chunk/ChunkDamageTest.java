package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.TASK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lenient reader skips exactly the damaged chunks: for a flipped bit at every byte of a file after its header, the
 * chunks read are the original ones minus the chunk whose header or payload holds that byte (all of them when the
 * bit is in the index, the trailer or padding), each read chunk has its original bytes, and every skip is reported
 * once with the file and a byte offset.
 */
class ChunkDamageTest {
    @TempDir
    Path dir;

    private byte[] good;
    private List<ChunkInfo> chunks;
    private long chunkAreaEnd;
    private int headerLength;

    @BeforeEach
    void writeGoodFile() throws Exception {
        Path file = dir.resolve("good.dfx");
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TASK))) {
            for (int seq = 0; seq < 3; seq++) {
                for (int lane = 0; lane < 3; lane++) {
                    w.append(0, lane, seq, TestChunks.taskRecords(lane, seq, 3 + lane, seq * 100L), 3 + lane);
                }
            }
        }
        good = Files.readAllBytes(file);
        try (ChunkReader r = ChunkReader.open(file)) {
            chunks = r.chunks();
        }
        headerLength = Math.toIntExact(chunks.getFirst().offset());
        chunkAreaEnd = chunks.getLast().end();
    }

    /** @return the index of the chunk whose header or payload (not padding) holds byte {@code at}, or -1 */
    private int owner(long at) {
        for (int i = 0; i < chunks.size(); i++) {
            ChunkInfo c = chunks.get(i);
            if (at >= c.offset() && at < c.payloadOffset() + c.payloadLength()) {
                return i;
            }
        }
        return -1;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFlippedBitCostsExactlyTheChunkThatHoldsIt(boolean withIndex) throws Exception {
        byte[] base = withIndex ? good : Arrays.copyOf(good, (int) chunkAreaEnd); // no index: the writer died
        for (int at = headerLength; at < base.length; at++) {
            byte[] b = base.clone();
            b[at] ^= 0x10;
            Path p = TestChunks.copy(dir, "flip.dfx", b);
            List<ChunkDamage> damage = new ArrayList<>();
            List<ChunkInfo> read;
            try (ChunkReader r = ChunkReader.open(p, damage::add)) {
                read = r.chunks();
                for (ChunkInfo c : read) {
                    assertThat(r.records(c).toArray(ValueLayout.JAVA_BYTE)).as("chunk at %d", c.offset())
                            .isEqualTo(Arrays.copyOfRange(good, (int) c.payloadOffset(),
                                    (int) (c.payloadOffset() + c.payloadLength())));
                }
            }
            int lost = owner(at);
            List<ChunkInfo> expected = new ArrayList<>(chunks);
            if (lost >= 0) {
                expected.remove(lost);
            }
            assertThat(read).as("bit flipped at byte %d", at).extracting(ChunkInfo::offset)
                    .containsExactlyElementsOf(expected.stream().map(ChunkInfo::offset).toList());
            if (lost >= 0) {
                assertThat(damage).as("byte %d", at).hasSize(1);
                ChunkDamage d = damage.getFirst();
                assertThat(d.file()).isEqualTo(p);
                assertThat(d.line()).startsWith(p + ": byte offset ").contains("; skipped ").doesNotContain("\n");
                assertThat(d.records()).isIn(-1L, (long) chunks.get(lost).recordCount());
            } else if (at >= chunkAreaEnd && at < good.length - ChunkFormat.TRAILER_SIZE) {
                assertThat(damage).as("index byte %d", at).hasSize(1);
                assertThat(damage.getFirst().line()).contains("read the chunks by a scan instead");
            } else {
                assertThat(damage).as("padding or trailer byte %d", at).isEmpty();
            }
            Files.delete(p);
        }
    }

    @Test
    void garbageBetweenChunksIsSkippedUpToTheNextChunk() throws Exception {
        ChunkInfo second = chunks.get(1);
        byte[] b = Arrays.copyOf(good, (int) chunkAreaEnd);
        Arrays.fill(b, (int) second.offset(), (int) second.end(), (byte) 0x5a); // a whole chunk overwritten
        Path p = TestChunks.copy(dir, "garbage.dfx", b);
        List<ChunkDamage> damage = new ArrayList<>();
        try (ChunkReader r = ChunkReader.open(p, damage::add)) {
            assertThat(r.chunks()).hasSize(chunks.size() - 1);
            assertThat(r.recovery()).isPresent();
        }
        assertThat(damage).extracting(ChunkDamage::line).containsExactly(p + ": byte offset " + second.offset()
                + ": expected a chunk header (magic \"CHNK\"), found 0x5a5a5a5a; skipped "
                + (second.end() - second.offset()) + " bytes up to the next chunk at byte offset " + second.end());
    }

    @Test
    void strictReadingIsUnchanged() throws Exception {
        byte[] b = good.clone();
        b[(int) chunks.get(4).payloadOffset()] ^= 1;
        Path p = TestChunks.copy(dir, "strict.dfx", b);
        assertThatThrownBy(() -> ChunkReader.open(p)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("chunk payload checksum mismatch");
    }
}
