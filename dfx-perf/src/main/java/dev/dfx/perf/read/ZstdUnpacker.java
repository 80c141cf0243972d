package dev.dfx.perf.read;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.dfx.error.BadInputException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Decompresses the zstd payloads of PERF_RECORD_COMPRESSED records with one streaming context for the whole
 * file, as perf does ({@code session.c perf_session__process_compressed_event}, {@code util/zstd.c}). Output
 * grows as needed; a record cut at the end of one block is completed by the next (the caller carries the
 * remainder). Not thread-safe; {@link #close()} frees the native context.
 */
final class ZstdUnpacker implements AutoCloseable {
    private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    private ByteBuffer out = ByteBuffer.allocateDirect(1 << 16);

    /**
     * @param compressed the zstd bytes (any segment)
     * @param carry      bytes left over from the previous block, placed before the new output
     * @param name       file name for errors
     * @param offset     offset of the COMPRESSED record, for errors
     * @return carry followed by the decompressed bytes, in a heap segment owned by the caller
     */
    MemorySegment unpack(MemorySegment compressed, byte[] carry, String name, long offset) {
        ByteBuffer src = direct(compressed);
        out.clear();
        try {
            while (true) {
                boolean frameDone = ctx.decompressDirectByteBufferStream(out, src);
                if (!src.hasRemaining() && (frameDone || out.hasRemaining())) {
                    break;
                }
                if (!out.hasRemaining()) {
                    grow();
                }
            }
        } catch (ZstdException e) {
            throw new BadInputException(name + ": PERF_RECORD_COMPRESSED at byte offset " + offset
                + " is not valid zstd data (" + e.getMessage() + ")", e);
        }
        out.flip();
        byte[] all = new byte[carry.length + out.remaining()];
        System.arraycopy(carry, 0, all, 0, carry.length);
        out.get(all, carry.length, out.remaining());
        return MemorySegment.ofArray(all);
    }

    private void grow() {
        ByteBuffer bigger = ByteBuffer.allocateDirect(out.capacity() * 2);
        out.flip();
        bigger.put(out);
        out = bigger;
    }

    private static ByteBuffer direct(MemorySegment seg) {
        if (seg.isNative()) {
            return seg.asByteBuffer();
        }
        ByteBuffer b = Arena.ofAuto().allocate(seg.byteSize()).asByteBuffer();
        b.put(seg.asByteBuffer());
        b.flip();
        return b;
    }

    @Override
    public void close() {
        ctx.close();
    }
}
