package dev.dfx.chunk;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/** Record and file helpers shared by the chunk store tests. */
final class TestChunks {
    static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** 32-byte record: u64 id at 0, u64 timestamp at 8, u64 lane at 16, u64 check at 24. */
    static final BufferKind TASK = BufferKind.timed(0, "core_task", 32, 8);

    private TestChunks() {
    }

    /** @return the id of record {@code i} of buffer (kind, lane, seq): unique per record */
    static long id(int kind, int lane, long seq, int i) {
        return ((long) kind << 56) | ((long) lane << 40) | (seq << 20) | i;
    }

    /** @return {@code count} 32-byte TASK records of one buffer; timestamps rise by 3 ns from {@code firstTs} */
    static MemorySegment taskRecords(int lane, long seq, int count, long firstTs) {
        MemorySegment s = MemorySegment.ofArray(new byte[count * 32]);
        for (int i = 0; i < count; i++) {
            long id = id(0, lane, seq, i);
            s.set(LE64, i * 32L, id);
            s.set(LE64, i * 32L + 8, firstTs + 3L * i);
            s.set(LE64, i * 32L + 16, lane);
            s.set(LE64, i * 32L + 24, ~id);
        }
        return s;
    }

    static int crc32c(byte[] b, int from, int length) {
        CRC32C c = new CRC32C();
        c.update(b, from, length);
        return (int) c.getValue();
    }

    static MemorySegment le(byte[] b) {
        return MemorySegment.ofArray(b);
    }

    /** Recomputes the CRC32C of chunk header {@code at} after a deliberate edit. */
    static void resealChunkHeader(byte[] b, int at) {
        MemorySegment.ofArray(b).set(LE32, at + 60, crc32c(b, at, 60));
    }

    /** Asserts that opening {@code bytes} (as a file in {@code dir}) is one BadInputException line at {@code offset}. */
    static void assertBad(Path dir, byte[] bytes, long offset, String what) throws IOException {
        Path p = copy(dir, "bad.dfx", bytes);
        assertThatThrownBy(() -> ChunkReader.open(p)).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith(p + ": byte offset " + offset + ": ")
                .hasMessageContaining(what)
                .hasMessageNotContaining("\n");
    }

    /** Writes {@code bytes} to a new file in {@code dir} and returns it. */
    static Path copy(Path dir, String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }
}
