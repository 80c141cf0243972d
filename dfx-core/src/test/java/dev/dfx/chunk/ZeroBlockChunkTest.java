package dev.dfx.chunk;

import static dev.dfx.chunk.TestChunks.LE32;
import static dev.dfx.chunk.TestChunks.LE64;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Zero-block encoded chunks (format version 2 and later): the codec round-trips sparse, dense and odd-sized payloads; the writer
 * encodes sparse large records and leaves small or dense ones; the bytes follow the documented layout (worked out by
 * hand); damage is one line naming the offset; and version 1 files are still read.
 */
class ZeroBlockChunkTest {
    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** A sparse kind like the deps submit record: 4672-byte records, no timestamp. */
    private static final BufferKind SPARSE = BufferKind.untimed(0, "submit", 4672);

    @TempDir
    Path dir;

    /** @return {@code length} bytes, each 64-byte block non-zero with probability {@code density} percent */
    private static byte[] sparse(SplittableRandom rnd, int length, int density) {
        byte[] b = new byte[length];
        for (int block = 0; block * 64 < length; block++) {
            if (rnd.nextInt(100) < density) {
                int at = block * 64 + rnd.nextInt(Math.min(64, length - block * 64));
                b[at] = (byte) (1 + rnd.nextInt(255));
            }
        }
        return b;
    }

    @ParameterizedTest(name = "{0} bytes, {1}% of blocks used")
    @CsvSource({"0, 0", "1, 100", "63, 100", "64, 0", "65, 50", "4672, 10", "4672, 100", "12345, 30", "300000, 5", "300000, 80",
            "262144, 1"})
    void theCodecRoundTrips(int length, int density) {
        SplittableRandom rnd = new SplittableRandom(length * 31L + density);
        byte[] payload = sparse(rnd, length, density);
        MemorySegment p = MemorySegment.ofArray(payload);
        long[] bits = ZeroBlocks.bitmap(p);
        long n = ZeroBlocks.encodedLength(bits, length);
        MemorySegment stored = MemorySegment.ofArray(new byte[(int) n]);
        ZeroBlocks.encode(p, bits, stored, 0);
        assertThat(ZeroBlocks.check(stored, length)).isNull();
        assertThat(ZeroBlocks.decode(stored, length, Arena.ofAuto()).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(payload);
        long used = 0;
        for (int block = 0; block * 64 < length; block++) {
            byte[] part = Arrays.copyOfRange(payload, block * 64, Math.min(length, block * 64 + 64));
            used += new String(part, StandardCharsets.ISO_8859_1).chars().anyMatch(c -> c != 0)
                    ? part.length : 0;
        }
        assertThat(n).as("bitmap words + the blocks that hold a non-zero byte")
                .isEqualTo(8L * ((length + 4095) / 4096) + used);
    }

    @Test
    void oneDecodeBufferGivesBackEachPayloadOfASequenceWhateverTheOneBeforeLeftInIt() {
        // lengths shrink and grow (a short last block, growth past the buffer) and densities swing between dense and
        // sparse, so that blocks an earlier payload filled must read as zero in a later one
        int[][] shapes = {{4672 * 8, 90}, {4672 * 8, 5}, {4672 * 8, 0}, {65, 100}, {4672 * 8, 30}, {300000, 50},
                {12345, 100}, {300000, 2}, {1, 100}, {300001, 60}, {300001, 0}, {4672 * 8, 10}};
        SplittableRandom rnd = new SplittableRandom(42);
        try (DecodeBuffer buffer = new DecodeBuffer()) {
            for (int round = 0; round < 3; round++) {
                for (int[] shape : shapes) {
                    byte[] payload = sparse(rnd, shape[0], shape[1]);
                    MemorySegment p = MemorySegment.ofArray(payload);
                    long[] bits = ZeroBlocks.bitmap(p);
                    MemorySegment stored = MemorySegment.ofArray(new byte[(int) ZeroBlocks.encodedLength(bits,
                            payload.length)]);
                    ZeroBlocks.encode(p, bits, stored, 0);
                    assertThat(buffer.decode(stored, payload.length).toArray(ValueLayout.JAVA_BYTE))
                            .as("%d bytes, %d%% of blocks used, round %d", shape[0], shape[1], round)
                            .isEqualTo(payload);
                }
            }
        }
    }

    @Test
    void theWriterEncodesSparseLargeRecordsOnlyAndTheReaderGivesTheRecordsBack() throws Exception {
        Path file = dir.resolve("mixed.dfx");
        SplittableRandom rnd = new SplittableRandom(5);
        byte[] sparseRecords = new byte[4672 * 300];
        for (int r = 0; r < 300; r++) {
            byte[] head = sparse(rnd, 600, 100);  // ~600 leading bytes used, the rest zero: a deps record
            System.arraycopy(head, 0, sparseRecords, r * 4672, head.length);
        }
        byte[] denseRecords = new byte[4672 * 4];
        rnd.nextBytes(denseRecords);
        BufferKind small = BufferKind.timed(1, "task", 32, 0);
        MemorySegment smallRecords = MemorySegment.ofArray(new byte[32 * 10]);  // all zero, but records are small
        try (ChunkWriter w = ChunkWriter.create(file, "deps", List.of(SPARSE, small), 64 << 10)) {
            w.append(0, 0, 0, MemorySegment.ofArray(sparseRecords), 300);  // encoded, still larger than the staging
            w.append(0, 0, 1, MemorySegment.ofArray(denseRecords), 4);
            w.append(1, 0, 0, smallRecords, 10);
            w.append(0, 0, 2, MemorySegment.ofArray(Arrays.copyOf(sparseRecords, 4672 * 3)), 3);
        }
        try (ChunkReader r = ChunkReader.open(file)) {
            assertThat(r.formatVersion()).isEqualTo(3);
            List<ChunkInfo> c = r.chunks();
            assertThat(c).extracting(ChunkInfo::zeroBlocks).containsExactly(true, false, false, true);
            assertThat(c.get(0).storedLength()).as("about a tenth").isLessThan(c.get(0).payloadLength() / 6);
            assertThat(c.get(1).storedLength()).isEqualTo(c.get(1).payloadLength());
            assertThat(r.records(c.get(0)).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(sparseRecords);
            assertThat(r.records(c.get(1)).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(denseRecords);
            assertThat(r.records(c.get(2)).toArray(ValueLayout.JAVA_BYTE)).containsOnly(0).hasSize(320);
            assertThat(r.records(c.get(3)).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(Arrays.copyOf(sparseRecords, 4672 * 3));
            assertThat(r.records(c.get(3)).isReadOnly()).isTrue();
        }
        assertThat(Files.size(file)).as("the file is far smaller than its records")
                .isLessThan((long) sparseRecords.length / 5 + denseRecords.length + 4096);
    }

    /**
     * The bitmap {@code append} hands its caller: for the hand-worked 256-byte record (bytes in blocks 0 and 3) it is
     * 0b1001 in 64-byte blocks, the same as the stored one, and the file is byte-identical to one written without
     * asking; for 300 sparse records it has a bit exactly for each block with a non-zero byte (checked by a byte
     * scan); a dense large chunk still reports it; small records are not scanned, so nothing is reported.
     */
    @Test
    void appendHandsItsCallerTheBitmapOfNonZeroBlocks() throws Exception {
        byte[] record = new byte[256];
        record[0] = 0x11;
        record[7] = 0x22;
        record[200] = 0x33;
        List<long[]> seen = new java.util.ArrayList<>();
        List<Integer> blockBytes = new java.util.ArrayList<>();
        java.util.function.ObjIntConsumer<long[]> sink = (bits, bytes) -> {
            seen.add(bits);
            blockBytes.add(bytes);
        };
        Path file = dir.resolve("told.dfx");
        try (ChunkWriter w = ChunkWriter.create(file, "deps", List.of(BufferKind.untimed(2, "s", 256)))) {
            w.append(2, 4, 0, MemorySegment.ofArray(record), 1, sink);
        }
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0)).containsExactly(0b1001L);
        assertThat(blockBytes).containsExactly(64);
        assertThat(ChunkWriter.ZERO_BLOCK_BYTES).isEqualTo(64);
        byte[] told = Files.readAllBytes(file);
        byte[] plain = Files.readAllBytes(handWorkedFile());
        assertThat(Arrays.copyOfRange(told, 40, told.length)).as("after the run id, the same bytes")
                .isEqualTo(Arrays.copyOfRange(plain, 40, plain.length));

        SplittableRandom rnd = new SplittableRandom(11);
        byte[] sparseRecords = new byte[4672 * 300];
        for (int r = 0; r < 300; r++) {
            byte[] head = sparse(rnd, 4672, 8);
            System.arraycopy(head, 0, sparseRecords, r * 4672, head.length);
        }
        byte[] denseRecords = new byte[4672 * 4];
        rnd.nextBytes(denseRecords);
        seen.clear();
        try (ChunkWriter w = ChunkWriter.create(dir.resolve("many.dfx"), "deps",
                List.of(SPARSE, BufferKind.timed(1, "task", 32, 0)), 64 << 10)) {
            w.append(0, 0, 0, MemorySegment.ofArray(sparseRecords), 300, sink);
            w.append(0, 0, 1, MemorySegment.ofArray(denseRecords), 4, sink);
            w.append(1, 0, 0, MemorySegment.ofArray(new byte[32 * 10]), 10, sink);
        }
        assertThat(seen).hasSize(2);
        long[] bits = seen.get(0);
        int blocks = (sparseRecords.length + 63) / 64;
        assertThat(bits).hasSize((blocks + 63) / 64);
        for (int block = 0; block < blocks; block++) {
            boolean nonZero = false;
            for (int i = block * 64; i < Math.min(sparseRecords.length, block * 64 + 64); i++) {
                nonZero |= sparseRecords[i] != 0;
            }
            assertThat((bits[block / 64] >>> block & 1) == 1).as("block %d", block).isEqualTo(nonZero);
        }
        assertThat(Arrays.stream(seen.get(1)).map(Long::bitCount).sum()).as("dense: every block")
                .isEqualTo(4672 * 4 / 64);
    }

    /** One 256-byte record with bytes in blocks 0 and 3: bitmap 0b1001, then the two blocks (136 bytes). */
    private Path handWorkedFile() throws Exception {
        Path file = dir.resolve("layout.dfx");
        byte[] record = new byte[256];
        record[0] = 0x11;
        record[7] = 0x22;
        record[200] = 0x33;
        try (ChunkWriter w = ChunkWriter.create(file, "deps", List.of(BufferKind.untimed(2, "s", 256)))) {
            assertThat(w.append(2, 4, 0, MemorySegment.ofArray(record), 1)).isEqualTo(72);
        }
        return file;
    }

    @Test
    void anEncodedChunkMatchesTheDocumentedLayout() throws Exception {
        byte[] b = Files.readAllBytes(handWorkedFile());
        MemorySegment s = MemorySegment.ofArray(b);
        // File header: 40 fixed + "deps" padded to 8 + one kind entry (16 + "s" padded to 8) = 72.
        assertThat(s.get(LE16, 8)).as("format version").isEqualTo((short) 3);
        int at = s.get(LE32, 12);
        assertThat(at).isEqualTo(72);
        assertThat(s.get(LE16, at + 6)).as("flags: ZERO_BLOCKS").isEqualTo((short) 1);
        assertThat(s.get(LE32, at + 24)).as("record count").isEqualTo(1);
        assertThat(s.get(LE64, at + 48)).as("stored payload length").isEqualTo(136);
        int p = at + 64;
        assertThat(s.get(LE32, at + 28)).as("CRC32C of the stored bytes").isEqualTo(TestChunks.crc32c(b, p, 136));
        assertThat(s.get(LE64, p)).as("bitmap: blocks 0 and 3").isEqualTo(0b1001);
        assertThat(b[p + 8]).isEqualTo((byte) 0x11);
        assertThat(b[p + 15]).isEqualTo((byte) 0x22);
        assertThat(b[p + 8 + 64 + 200 - 192]).isEqualTo((byte) 0x33);
        assertThat(new String(b, p + 136, 8, StandardCharsets.US_ASCII))
                .as("the index follows at once (136 is a multiple of 8)").isEqualTo("DFXINDEX");
    }

    @Test
    void damagedEncodingsAreOneLineNamingTheOffset() throws Exception {
        byte[] good = Files.readAllBytes(handWorkedFile());
        int chunk = 72;
        int payload = chunk + 64;

        byte[] flipped = good.clone();
        flipped[payload] ^= 0b0100;  // bitmap now claims block 2 too: the checksum catches it
        TestChunks.assertBad(dir, flipped, payload, "chunk payload checksum mismatch");

        byte[] resealed = flipped.clone();
        MemorySegment.ofArray(resealed).set(LE32, chunk + 28, TestChunks.crc32c(resealed, payload, 136));
        TestChunks.resealChunkHeader(resealed, chunk);
        TestChunks.assertBad(dir, resealed, payload, "zero-block payload is 136 bytes but its bitmap says 200");

        byte[] pastEnd = good.clone();
        pastEnd[payload] = (byte) 0b10001;  // block 4 of a 4-block payload
        MemorySegment.ofArray(pastEnd).set(LE32, chunk + 28, TestChunks.crc32c(pastEnd, payload, 136));
        TestChunks.resealChunkHeader(pastEnd, chunk);
        TestChunks.assertBad(dir, pastEnd, payload, "zero-block bitmap marks blocks past the 4 blocks of a 256-byte payload");

        byte[] unknownFlag = good.clone();
        unknownFlag[chunk + 6] = 3;
        TestChunks.resealChunkHeader(unknownFlag, chunk);
        TestChunks.assertBad(dir, unknownFlag, chunk + 6, "chunk flags 0x3 are not defined in format version 3");
    }

    @Test
    void versionOneFilesAreReadAndMayNotCarryFlags() throws Exception {
        byte[] v1;
        try (var in = ZeroBlockChunkTest.class.getResourceAsStream("/chunk/v2-layout.dfx")) {
            v1 = in.readAllBytes();  // written by dfx's format version 2 (see ChunkLayoutTest)
        }
        v1[8] = 1;  // a version 1 file has exactly the layout of version 2 with flags 0
        resealFileHeader(v1);
        Path old = TestChunks.copy(dir, "v1.dfx", v1);
        try (ChunkReader r = ChunkReader.open(old)) {
            assertThat(r.formatVersion()).isEqualTo(1);
            assertThat(r.runId()).isEmpty();
            assertThat(r.records(r.chunks().getFirst()).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(TestChunks.taskRecords(5, 7, 2, 1000).toArray(ValueLayout.JAVA_BYTE));
        }
        int chunk = MemorySegment.ofArray(v1).get(LE32, 12);
        v1[chunk + 6] = 1;
        TestChunks.resealChunkHeader(v1, chunk);
        TestChunks.assertBad(dir, v1, chunk + 6, "chunk flags 0x1 are not defined in format version 1");
    }



    /** CRC32C over header bytes [0,16) and [20, length), as the format says. */
    private static void resealFileHeader(byte[] b) {
        int length = MemorySegment.ofArray(b).get(LE32, 12);
        byte[] without = new byte[length - 4];
        System.arraycopy(b, 0, without, 0, 16);
        System.arraycopy(b, 20, without, 16, length - 20);
        MemorySegment.ofArray(b).set(LE32, 16, TestChunks.crc32c(without, 0, without.length));
    }
}
