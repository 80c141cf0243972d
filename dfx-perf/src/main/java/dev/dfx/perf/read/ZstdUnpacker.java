package dev.dfx.perf.read;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.RecordType;
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
     * @param record     the COMPRESSED record, for errors
     * @param errors     names the file in errors
     * @return carry followed by the decompressed bytes, in a heap segment owned by the caller
     * @throws dev.dfx.error.BadInputException when the payload is not zstd data or unpacks to nothing (perf:
     *                                         "Couldn't decompress data")
     */
    MemorySegment unpack(MemorySegment compressed, byte[] carry, PerfRecord record, InputErrors errors) {
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
            BadInputException bad = errors.at(record, RecordType.name(record.type()) + " payload is not valid zstd"
                + " data (" + e.getMessage() + "); expected a zstd stream of perf records");
            bad.initCause(e);
            throw bad;
        }
        out.flip();
        if (!out.hasRemaining()) {
            throw errors.at(record, RecordType.name(record.type()) + " payload of " + compressed.byteSize()
                + " bytes unpacks to no data; expected at least one perf record");
        }
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
