package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.LE32;
import static dev.dfx.chunk.TestChunks.LE64;
import static dev.dfx.chunk.TestChunks.TASK;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Each kind of damage is reported as one BadInputException line naming the file and the byte offset; a corrupt
 * trailer alone only costs the index (the chunks are still read, by scanning).
 */
class ChunkCorruptionTest {
    @TempDir
    Path dir;

    private byte[] good;
    private List<ChunkInfo> chunks;

    @BeforeEach
    void writeGoodFile() throws Exception {
        Path file = dir.resolve("good.dfx");
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TASK))) {
            for (int seq = 0; seq < 3; seq++) {
                w.append(0, 2, seq, TestChunks.taskRecords(2, seq, 4, seq * 100L), 4);
            }
        }
        good = Files.readAllBytes(file);
        try (ChunkReader r = ChunkReader.open(file)) {
            chunks = r.chunks();
        }
    }

    private Path damaged(byte[] bytes) throws Exception {
        return TestChunks.copy(dir, "bad.dfx", bytes);
    }

    private void assertBad(byte[] bytes, long offset, String what) throws Exception {
        TestChunks.assertBad(dir, bytes, offset, what);
    }

    private static void resealChunkHeader(byte[] b, int at) {
        TestChunks.resealChunkHeader(b, at);
    }

    @Test
    void wrongMagic() throws Exception {
        byte[] b = good.clone();
        b[3] = 'x';
        assertBad(b, 0, "not a dfx chunk file (expected magic \"DFXCHUNK\")");
    }

    @Test
    void unsupportedVersion() throws Exception {
        byte[] b = good.clone();
        b[8] = 4;
        assertBad(b, 8, "unsupported chunk file format version 4 (this dfx reads 1 to 3)");
    }

    @Test
    void fileHeaderChecksum() throws Exception {
        byte[] b = good.clone();
        b[25] ^= 1; // a letter of the subsystem name
        assertBad(b, 0, "file header checksum mismatch");
    }

    @Test
    void payloadChecksumMismatchNamesThePayloadOffset() throws Exception {
        ChunkInfo second = chunks.get(1);
        byte[] b = good.clone();
        b[(int) second.payloadOffset() + 17] ^= 0x40;
        assertBad(b, second.payloadOffset(), "chunk payload checksum mismatch (kind 0 lane 2 seq 1");
    }

    @Test
    void chunkHeaderChecksum() throws Exception {
        ChunkInfo third = chunks.get(2);
        byte[] b = good.clone();
        b[(int) third.offset() + 8] ^= 1; // the lane
        assertBad(b, third.offset(), "chunk header checksum mismatch");
    }

    @Test
    void recordSizeDisagreeingWithTheKindTable() throws Exception {
        int at = (int) chunks.get(1).offset();
        byte[] b = good.clone();
        MemorySegment s = MemorySegment.ofArray(b);
        s.set(LE32, at + 12, 16);
        s.set(LE32, at + 24, 8); // 8 x 16 keeps the payload length consistent
        resealChunkHeader(b, at);
        assertBad(b, at + 12, "chunk record size 16 disagrees with kind core_task (32 bytes in the kind table)");
    }

    @Test
    void unknownKind() throws Exception {
        int at = (int) chunks.getFirst().offset();
        byte[] b = good.clone();
        b[at + 4] = 7;
        resealChunkHeader(b, at);
        assertBad(b, at + 4, "chunk kind 7 is not in the file's kind table");
    }

    @Test
    void indexEntryDisagreeingWithTheChunkHeader() throws Exception {
        int at = (int) chunks.get(1).offset();
        byte[] b = good.clone();
        MemorySegment.ofArray(b).set(LE64, at + 16, 9); // seq 1 -> 9 in the header only
        resealChunkHeader(b, at);
        assertBad(b, at, "chunk header disagrees with its index entry (header kind 0 lane 2 seq 9");
    }

    @Test
    void indexEntriesThatOverlapAChunk() throws Exception {
        // Point the second index entry 8 bytes into the first chunk's payload, then reseal index and trailer.
        int index = (int) chunks.getLast().end();
        byte[] b = good.clone();
        MemorySegment s = MemorySegment.ofArray(b);
        long inside = chunks.getFirst().payloadOffset() + 8;
        s.set(LE64, index + 16 + 48, inside);
        int indexLength = 16 + 3 * 48;
        s.set(LE32, index + indexLength + 16, TestChunks.crc32c(b, index, indexLength));
        s.set(LE32, index + indexLength + 20, TestChunks.crc32c(b, index + indexLength, 20));
        assertBad(b, inside, "chunk listed in the index starts inside the chunk before it, which ends at offset "
                + chunks.getFirst().end());
    }

    @Test
    void indexChecksum() throws Exception {
        int index = (int) chunks.getLast().end();
        byte[] b = good.clone();
        b[index + 16 + 8] ^= 1; // seq of the first index entry
        assertBad(b, index, "chunk index checksum mismatch");
    }

    @Test
    void bytesMissingFromTheMiddleMakeTheTrailerPointWrong() throws Exception {
        int cutFrom = (int) chunks.get(1).payloadOffset();
        byte[] b = new byte[good.length - 8];
        System.arraycopy(good, 0, b, 0, cutFrom);
        System.arraycopy(good, cutFrom + 8, b, cutFrom, good.length - cutFrom - 8);
        assertBad(b, b.length - 32, "trailer points at a chunk index of 3 entries");
    }

    @Test
    void withoutAnIndexOnlyATornLastChunkIsForgiven() throws Exception {
        // Writer died after the third chunk: a damaged complete chunk before it is still bad input.
        ChunkInfo second = chunks.get(1);
        byte[] b = Arrays.copyOf(good, (int) chunks.get(2).end());
        b[(int) second.payloadOffset() + 3] ^= 1;
        assertBad(b, second.payloadOffset(), "chunk payload checksum mismatch");
        // The file ends 40 bytes into the third chunk's header, or 70 bytes into its payload: read up to it.
        for (int cut : new int[]{(int) chunks.get(2).offset() + 40, (int) chunks.get(2).payloadOffset() + 70}) {
            try (ChunkReader r = ChunkReader.open(damaged(Arrays.copyOf(good, cut)))) {
                assertThat(r.chunks()).isEqualTo(chunks.subList(0, 2));
                assertThat(r.recovery().orElseThrow().stoppedAt()).isEqualTo(chunks.get(2).offset());
            }
        }
    }

    @Test
    void corruptTrailerOnlyCostsTheIndex() throws Exception {
        byte[] b = good.clone();
        b[b.length - 32] ^= 1; // the index offset, now failing the trailer checksum
        try (ChunkReader r = ChunkReader.open(damaged(b))) {
            assertThat(r.complete()).isFalse();
            assertThat(r.chunks()).isEqualTo(chunks);
            assertThat(r.recovery().orElseThrow().reason())
                    .startsWith("trailer at byte offset " + (good.length - 32) + " has a checksum mismatch");
        }
    }
}
