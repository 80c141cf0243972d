package dev.dfx.chunk;

import dev.dfx.io.ZeroedMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One native buffer that zero-block chunks are decoded into, chunk after chunk ({@link ChunkReader#records(ChunkInfo,
 * DecodeBuffer)}): each decoded chunk replaces the one before, which its reader no longer holds. A sparse chunk (a
 * deps chunk decodes to 4.7 MB of which about a tenth is stored) costs what it stores: the buffer remembers which
 * blocks the earlier chunks left non-zero and clears only those, instead of zeroing the whole payload for every chunk.
 * It grows (to the larger of the request and twice its size) when a chunk does not fit.
 *
 * <p>Not thread-safe: one walk on one thread. {@link #close()} frees the memory; segments handed out are invalid after.
 */
public final class DecodeBuffer implements AutoCloseable {
    private final Arena arena = Arena.ofConfined();
    private MemorySegment buffer = MemorySegment.NULL;
    /** One bit per block of {@link #buffer}: set where a block may hold a non-zero byte. */
    private long[] dirty = new long[0];

    /** Creates an empty buffer; the first chunk allocates it. */
    public DecodeBuffer() {
    }

    /**
     * @param stored a zero-block payload that passed {@link ZeroBlocks#check}
     * @param length its decoded length, bytes
     * @return the decoded payload, read-only, valid until the next call or {@link #close()}
     */
    MemorySegment decode(MemorySegment stored, long length) {
        if (buffer.byteSize() < length) {
            buffer = ZeroedMemory.allocate(arena, Math.max(length, 2 * buffer.byteSize()), false);
            dirty = new long[ZeroBlocks.words(buffer.byteSize())];
        }
        ZeroBlocks.decodeOver(stored, length, buffer, dirty);
        return buffer.asSlice(0, length).asReadOnly();
    }

    /** Frees the buffer. */
    @Override
    public void close() {
        arena.close();
    }
}
