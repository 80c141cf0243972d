package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.LE32;
import static dev.dfx.chunk.TestChunks.LE64;
import static org.assertj.core.api.Assertions.assertThat;

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
        try (ChunkWriter w = ChunkWriter.create(file, "swimlane", List.of(TestChunks.TASK, untimed))) {
            assertThat(w.append(0, 5, 7, tasks, 2)).isEqualTo(88);
            assertThat(w.append(3, 1, 0, MemorySegment.ofArray(odd), 1)).isEqualTo(216);
        }
        byte[] b = Files.readAllBytes(file);
        MemorySegment s = MemorySegment.ofArray(b);

        // File header: 24 fixed + "swimlane" (8) + kind 0 (16 + "core_task" padded to 16) + kind 3 (16 + "x" -> 8).
        assertThat(new String(b, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("DFXCHUNK");
        assertThat(s.get(LE16, 8)).isEqualTo((short) 2);
        assertThat(s.get(LE16, 10)).isEqualTo((short) 2);
        assertThat(s.get(LE32, 12)).isEqualTo(88);
        byte[] headerWithoutCrc = new byte[84];
        System.arraycopy(b, 0, headerWithoutCrc, 0, 16);
        System.arraycopy(b, 20, headerWithoutCrc, 16, 68);
        assertThat(s.get(LE32, 16)).isEqualTo(TestChunks.crc32c(headerWithoutCrc, 0, 84));
        assertThat(s.get(LE16, 20)).isEqualTo((short) 8);
        assertThat(new String(b, 24, 8, StandardCharsets.UTF_8)).isEqualTo("swimlane");
        assertThat(s.get(LE16, 32)).isEqualTo((short) 0);
        assertThat(s.get(LE16, 34)).isEqualTo((short) 9);
        assertThat(s.get(LE32, 36)).isEqualTo(32);
        assertThat(s.get(LE32, 40)).isEqualTo(8);
        assertThat(b[44]).isEqualTo((byte) 8);
        assertThat(new String(b, 48, 9, StandardCharsets.UTF_8)).isEqualTo("core_task");
        assertThat(Arrays.copyOfRange(b, 57, 64)).containsOnly(0);
        assertThat(s.get(LE16, 64)).isEqualTo((short) 3);
        assertThat(s.get(LE16, 66)).isEqualTo((short) 1);
        assertThat(s.get(LE32, 68)).isEqualTo(12);
        assertThat(b[76]).isEqualTo((byte) 0);
        assertThat(b[80]).isEqualTo((byte) 'x');

        // Chunk 1 at 88: 64-byte header, 2 x 32 bytes of payload.
        assertThat(new String(b, 88, 4, StandardCharsets.US_ASCII)).isEqualTo("CHNK");
        assertThat(s.get(LE16, 92)).isEqualTo((short) 0);
        assertThat(s.get(LE32, 96)).isEqualTo(5);
        assertThat(s.get(LE32, 100)).isEqualTo(32);
        assertThat(s.get(LE64, 104)).isEqualTo(7);
        assertThat(s.get(LE32, 112)).isEqualTo(2);
        assertThat(s.get(LE32, 116)).isEqualTo(TestChunks.crc32c(b, 152, 64));
        assertThat(s.get(LE64, 120)).isEqualTo(1000);
        assertThat(s.get(LE64, 128)).isEqualTo(1003);
        assertThat(s.get(LE64, 136)).isEqualTo(64);
        assertThat(s.get(LE32, 148)).isEqualTo(TestChunks.crc32c(b, 88, 60));
        assertThat(Arrays.copyOfRange(b, 152, 216)).isEqualTo(tasks.toArray(ValueLayout.JAVA_BYTE));

        // Chunk 2 at 216: kind 3, one 12-byte record padded to 16; no timestamps.
        assertThat(s.get(LE16, 220)).isEqualTo((short) 3);
        assertThat(s.get(LE32, 228)).isEqualTo(12);
        assertThat(s.get(LE64, 248)).isZero();
        assertThat(s.get(LE64, 256)).isZero();
        assertThat(s.get(LE64, 264)).isEqualTo(12);
        assertThat(Arrays.copyOfRange(b, 280, 292)).isEqualTo(odd);
        assertThat(Arrays.copyOfRange(b, 292, 296)).containsOnly(0);

        // Index at 296: 16 + 2 x 48 bytes; trailer at 408; file is 440 bytes.
        assertThat(b).hasSize(440);
        assertThat(new String(b, 296, 8, StandardCharsets.US_ASCII)).isEqualTo("DFXINDEX");
        assertThat(s.get(LE64, 304)).isEqualTo(2);
        assertThat(s.get(LE64, 312)).isEqualTo(88);
        assertThat(s.get(LE64, 320)).isEqualTo(7);
        assertThat(s.get(LE64, 328)).isEqualTo(1000);
        assertThat(s.get(LE64, 336)).isEqualTo(1003);
        assertThat(s.get(LE32, 344)).isEqualTo(5);
        assertThat(s.get(LE32, 348)).isEqualTo(2);
        assertThat(s.get(LE16, 352)).isEqualTo((short) 0);
        assertThat(s.get(LE64, 360)).isEqualTo(216);
        assertThat(s.get(LE16, 400)).isEqualTo((short) 3);
        assertThat(s.get(LE64, 408)).isEqualTo(296);
        assertThat(s.get(LE64, 416)).isEqualTo(2);
        assertThat(s.get(LE32, 424)).isEqualTo(TestChunks.crc32c(b, 296, 112));
        assertThat(s.get(LE32, 428)).isEqualTo(TestChunks.crc32c(b, 408, 20));
        assertThat(new String(b, 432, 8, StandardCharsets.US_ASCII)).isEqualTo("DFXTRAIL");
    }
}
