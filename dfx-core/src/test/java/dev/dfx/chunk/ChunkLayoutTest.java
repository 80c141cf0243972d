package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.LE32;
import static dev.dfx.chunk.TestChunks.LE64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The bytes of a small file against the layout documented in {@code package-info.java}, offsets worked out by hand.
 */
class ChunkLayoutTest {
    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @TempDir
    Path dir;

    @Test
    void fileMatchesTheDocumentedLayout() throws Exception {
        Path file = dir.resolve("swimlane.dfx");
        BufferKind untimed = BufferKind.untimed(3, "x", 12);
        MemorySegment tasks = TestChunks.taskRecords(5, 7, 2, 1000);
        byte[] odd = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        RunId run = new RunId(0x0123456789abcdefL, 0xfedcba9876543210L);
        try (ChunkWriter w = ChunkWriter.create(file, run, "swimlane", List.of(TestChunks.TASK, untimed))) {
            assertThat(w.append(0, 5, 7, tasks, 2)).isEqualTo(104);
            assertThat(w.append(3, 1, 0, MemorySegment.ofArray(odd), 1)).isEqualTo(232);
        }
        byte[] b = Files.readAllBytes(file);
        MemorySegment s = MemorySegment.ofArray(b);

        // File header: 40 fixed (24 + run id) + "swimlane" (8) + kind 0 (16 + "core_task" padded to 16)
        // + kind 3 (16 + "x" -> 8).
        assertThat(new String(b, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("DFXCHUNK");
        assertThat(s.get(LE16, 8)).isEqualTo((short) 3);
        assertThat(s.get(LE16, 10)).isEqualTo((short) 2);
        assertThat(s.get(LE32, 12)).isEqualTo(104);
        byte[] headerWithoutCrc = new byte[100];
        System.arraycopy(b, 0, headerWithoutCrc, 0, 16);
        System.arraycopy(b, 20, headerWithoutCrc, 16, 84);
        assertThat(s.get(LE32, 16)).isEqualTo(TestChunks.crc32c(headerWithoutCrc, 0, 100));
        assertThat(s.get(LE16, 20)).isEqualTo((short) 8);
        assertThat(s.get(LE64, 24)).isEqualTo(0x0123456789abcdefL);
        assertThat(s.get(LE64, 32)).isEqualTo(0xfedcba9876543210L);
        assertThat(new String(b, 40, 8, StandardCharsets.UTF_8)).isEqualTo("swimlane");
        assertThat(s.get(LE16, 48)).isEqualTo((short) 0);
        assertThat(s.get(LE16, 50)).isEqualTo((short) 9);
        assertThat(s.get(LE32, 52)).isEqualTo(32);
        assertThat(s.get(LE32, 56)).isEqualTo(8);
        assertThat(b[60]).isEqualTo((byte) 8);
        assertThat(new String(b, 64, 9, StandardCharsets.UTF_8)).isEqualTo("core_task");
        assertThat(Arrays.copyOfRange(b, 73, 80)).containsOnly(0);
        assertThat(s.get(LE16, 80)).isEqualTo((short) 3);
        assertThat(s.get(LE16, 82)).isEqualTo((short) 1);
        assertThat(s.get(LE32, 84)).isEqualTo(12);
        assertThat(b[92]).isEqualTo((byte) 0);
        assertThat(b[96]).isEqualTo((byte) 'x');

        // Chunk 1 at 104: 64-byte header, 2 x 32 bytes of payload.
        assertThat(new String(b, 104, 4, StandardCharsets.US_ASCII)).isEqualTo("CHNK");
        assertThat(s.get(LE16, 108)).isEqualTo((short) 0);
        assertThat(s.get(LE32, 112)).isEqualTo(5);
        assertThat(s.get(LE32, 116)).isEqualTo(32);
        assertThat(s.get(LE64, 120)).isEqualTo(7);
        assertThat(s.get(LE32, 128)).isEqualTo(2);
        assertThat(s.get(LE32, 132)).isEqualTo(TestChunks.crc32c(b, 168, 64));
        assertThat(s.get(LE64, 136)).isEqualTo(1000);
        assertThat(s.get(LE64, 144)).isEqualTo(1003);
        assertThat(s.get(LE64, 152)).isEqualTo(64);
        assertThat(s.get(LE32, 164)).isEqualTo(TestChunks.crc32c(b, 104, 60));
        assertThat(Arrays.copyOfRange(b, 168, 232)).isEqualTo(tasks.toArray(ValueLayout.JAVA_BYTE));

        // Chunk 2 at 232: kind 3, one 12-byte record padded to 16; no timestamps.
        assertThat(s.get(LE16, 236)).isEqualTo((short) 3);
        assertThat(s.get(LE32, 244)).isEqualTo(12);
        assertThat(s.get(LE64, 264)).isZero();
        assertThat(s.get(LE64, 272)).isZero();
        assertThat(s.get(LE64, 280)).isEqualTo(12);
        assertThat(Arrays.copyOfRange(b, 296, 308)).isEqualTo(odd);
        assertThat(Arrays.copyOfRange(b, 308, 312)).containsOnly(0);

        // Index at 312: 16 + 2 x 48 bytes; trailer at 424; file is 456 bytes.
        assertThat(b).hasSize(456);
        assertThat(new String(b, 312, 8, StandardCharsets.US_ASCII)).isEqualTo("DFXINDEX");
        assertThat(s.get(LE64, 320)).isEqualTo(2);
        assertThat(s.get(LE64, 328)).isEqualTo(104);
        assertThat(s.get(LE64, 336)).isEqualTo(7);
        assertThat(s.get(LE64, 344)).isEqualTo(1000);
        assertThat(s.get(LE64, 352)).isEqualTo(1003);
        assertThat(s.get(LE32, 360)).isEqualTo(5);
        assertThat(s.get(LE32, 364)).isEqualTo(2);
        assertThat(s.get(LE16, 368)).isEqualTo((short) 0);
        assertThat(s.get(LE64, 376)).isEqualTo(232);
        assertThat(s.get(LE16, 416)).isEqualTo((short) 3);
        assertThat(s.get(LE64, 424)).isEqualTo(312);
        assertThat(s.get(LE64, 432)).isEqualTo(2);
        assertThat(s.get(LE32, 440)).isEqualTo(TestChunks.crc32c(b, 312, 112));
        assertThat(s.get(LE32, 444)).isEqualTo(TestChunks.crc32c(b, 424, 20));
        assertThat(new String(b, 448, 8, StandardCharsets.US_ASCII)).isEqualTo("DFXTRAIL");

        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.formatVersion()).isEqualTo(3);
            assertThat(r.runId()).contains(run);
        }
    }

    /**
     * The same file as {@link #fileMatchesTheDocumentedLayout}, written by dfx before run ids (format version 2,
     * {@code src/test/resources/chunk/v2-layout.dfx}): read as it was, without a run id.
     */
    @Test
    void versionTwoFileWithoutRunIdIsStillRead() throws Exception {
        Path file = dir.resolve("v2.dfx");
        try (var in = ChunkLayoutTest.class.getResourceAsStream("/chunk/v2-layout.dfx")) {
            Files.write(file, in.readAllBytes());
        }
        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.formatVersion()).isEqualTo(2);
            assertThat(r.runId()).isEmpty();
            assertThat(r.subsystem()).isEqualTo("swimlane");
            assertThat(r.kinds()).extracting(BufferKind::name).containsExactly("core_task", "x");
            assertThat(r.chunks()).extracting(ChunkInfo::offset).containsExactly(88L, 216L);
            assertThat(r.records(r.chunks().getFirst()).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(TestChunks.taskRecords(5, 7, 2, 1000).toArray(ValueLayout.JAVA_BYTE));
            assertThat(r.complete()).isTrue();
        }
    }

    @Test
    void runIdSpellsAs32HexDigitsAndParsesBack() {
        RunId id = new RunId(0x0123456789abcdefL, 0xfedcba9876543210L);
        assertThat(id.toString()).isEqualTo("0123456789abcdeffedcba9876543210");
        assertThat(RunId.parse("0123456789ABCDEFfedcba9876543210")).isEqualTo(id);
        assertThat(RunId.random()).isNotEqualTo(RunId.random());
        assertThatThrownBy(() -> RunId.parse("0123"))
                .hasMessage("'0123' is not a run id (32 hex digits)");
    }
}
