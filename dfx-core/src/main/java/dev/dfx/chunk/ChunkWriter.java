package dev.dfx.chunk;

import dev.dfx.io.OwnerOnly;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.ObjIntConsumer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes one chunk file ({@code RUN/chunks/<subsystem>.dfx}, format in {@code package-info.java}): the file header
 * at {@link #create}, one chunk per {@link #append}ed buffer, and the chunk index and trailer at {@link #close()}.
 *
 * <p>Encoding: a chunk of records of at least {@value #ZERO_BLOCKS_MIN_RECORD} bytes is stored zero-block encoded
 * ({@link ChunkInfo#ZERO_BLOCKS}: only its 64-byte blocks that hold a non-zero byte) when that stores at least a
 * quarter fewer bytes; sparse records such as the 4672-byte deps submit record shrink about tenfold. Smaller records
 * (timestamps, ids, counters in every block) are stored as they are without trying.
 *
 * <p>Buffering: chunks are staged in a direct buffer (default 1 MiB) and written with one system call per full
 * staging buffer; a chunk larger than the staging buffer is written straight from the caller's segment (or, when
 * encoded, from a spill buffer of the writer) with a gathering write. {@link #flush()} hands staged chunks to the operating system; nothing is forced to the disk.
 * A file whose writer dies before {@link #close()} is still readable by {@link ChunkReader} up to the last chunk
 * that reached the operating system.
 *
 * <p>Thread-safety: every method is thread-safe; several collector threads may append to one writer. The payload
 * checksum and timestamps are computed by the calling thread outside the lock; file order is the order in which
 * appends take the lock. Each chunk is written whole and contiguously.
 *
 * <p>Errors: an {@link IOException} from the file system leaves the writer failed: later appends throw, and
 * {@link #close()} closes the file without an index, so a reader recovers every chunk written before the failure.
 */
public final class ChunkWriter implements AutoCloseable {
    /** Default staging buffer size, bytes. */
    public static final int DEFAULT_STAGING_BYTES = 1 << 20;
    /** Smallest record size whose chunks the writer tries to store zero-block encoded, bytes. */
    public static final int ZERO_BLOCKS_MIN_RECORD = 256;
    /** Bytes per block of the zero-block encoding and of the bitmap {@code append} hands its caller. */
    public static final int ZERO_BLOCK_BYTES = ZeroBlocks.BLOCK;

    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(8);

    private final Path path;
    private final FileChannel channel;
    private final ChunkFileHeader header;
    private final ReentrantLock lock = new ReentrantLock();
    private final ByteBuffer staging;
    private final MemorySegment stagingSegment;
    private final ByteBuffer largeHeader = ByteBuffer.allocateDirect(ChunkFormat.CHUNK_HEADER_SIZE)
            .order(ByteOrder.LITTLE_ENDIAN);
    private final ChunkIndex index = new ChunkIndex();
    /** Holds an encoded chunk larger than the staging buffer; grown as needed. Guarded by lock. */
    private ByteBuffer spill = ByteBuffer.allocateDirect(0);

    /** Bytes already handed to the channel; the file offset of {@code staging}'s first byte. Guarded by lock. */
    private long written;
    private long recordTotal;
    private boolean failed;
    /** The write that failed the writer, or null. Guarded by lock. */
    private IOException failure;
    private boolean closed;
    private boolean indexed;
    private final List<ChunkInfo> staged = new ArrayList<>(); // chunks in the staging buffer, not yet written
    private final List<ChunkInfo> lost = new ArrayList<>();

    private ChunkWriter(Path path, FileChannel channel, ChunkFileHeader header, int stagingBytes) {
        this.path = path;
        this.channel = channel;
        this.header = header;
        this.staging = ByteBuffer.allocateDirect(stagingBytes);
        this.stagingSegment = MemorySegment.ofBuffer(staging);
    }

    /**
     * Creates (or truncates) {@code file} with a {@link #DEFAULT_STAGING_BYTES} staging buffer, as the only file of a
     * run of its own (a fresh {@link RunId#random()}); see {@link #create(Path, RunId, String, List, int)}.
     *
     * @param file      the chunk file
     * @param subsystem subsystem name, 1..255 bytes of UTF-8
     * @param kinds     the kind table
     * @return the writer
     * @throws IOException when the file cannot be created or written
     */
    public static ChunkWriter create(Path file, String subsystem, List<BufferKind> kinds) throws IOException {
        return create(file, RunId.random(), subsystem, kinds, DEFAULT_STAGING_BYTES);
    }

    /**
     * Creates (or truncates) {@code file} of run {@code run} with a {@link #DEFAULT_STAGING_BYTES} staging buffer;
     * see {@link #create(Path, RunId, String, List, int)}.
     *
     * @param file      the chunk file
     * @param run       the run the file belongs to (its run.json's {@code run_id})
     * @param subsystem subsystem name, 1..255 bytes of UTF-8
     * @param kinds     the kind table
     * @return the writer
     * @throws IOException when the file cannot be created or written
     */
    public static ChunkWriter create(Path file, RunId run, String subsystem, List<BufferKind> kinds)
            throws IOException {
        return create(file, run, subsystem, kinds, DEFAULT_STAGING_BYTES);
    }

    /**
     * As {@link #create(Path, RunId, String, List, int)}, as the only file of a run of its own (a fresh
     * {@link RunId#random()}).
     *
     * @throws IOException when the file cannot be created or written
     */
    public static ChunkWriter create(Path file, String subsystem, List<BufferKind> kinds, int stagingBytes)
            throws IOException {
        return create(file, RunId.random(), subsystem, kinds, stagingBytes);
    }

    /**
     * Creates (or truncates) {@code file} and writes its header at once, so that even an empty run leaves a
     * readable file.
     *
     * @param file         the chunk file
     * @param run          the run the file belongs to, written in the file header
     * @param subsystem    subsystem name, 1..255 bytes of UTF-8
     * @param kinds        the kind table: 1..65535 kinds with distinct ids
     * @param stagingBytes staging buffer size, bytes, at least 4096
     * @return the writer
     * @throws IllegalArgumentException on an invalid name, kind table or staging size
     * @throws IOException              when the file cannot be created or written
     */
    public static ChunkWriter create(Path file, RunId run, String subsystem, List<BufferKind> kinds,
                                     int stagingBytes) throws IOException {
        if (stagingBytes < 4096) {
            throw new IllegalArgumentException("staging buffer of " + stagingBytes + " bytes, need at least 4096");
        }
        ChunkFileHeader header = new ChunkFileHeader(Objects.requireNonNull(run, "run"), subsystem, kinds);
        FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), OwnerOnly.forNewFile(file));
        try {
            ChunkWriter w = new ChunkWriter(file, ch, header, stagingBytes);
            w.writeFully(ByteBuffer.wrap(header.encode()));
            return w;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Appends one chunk: the first {@code recordCount} records of {@code records}.
     *
     * @param kind        a kind id of the kind table
     * @param lane        lane number within the kind (unsigned 32-bit)
     * @param seq         the lane's buffer sequence number: 0 for its first buffer, then +1 per buffer; the reader
     *                    reports a missing value as a lost buffer
     * @param records     the buffer's records, little-endian, at least {@code recordCount x recordSize} bytes; not
     *                    retained after the call returns
     * @param recordCount records to store, 0..2^31-1, with {@code recordCount x recordSize < 2^31 - 64}
     * @return the chunk's file offset, bytes
     * @throws IllegalArgumentException when the kind is unknown, the count is negative or the segment too small
     * @throws IllegalStateException    when the writer is closed
     * @throws IOException              when the file cannot be written (the writer is then failed)
     */
    public long append(int kind, int lane, long seq, MemorySegment records, int recordCount) throws IOException {
        return append(kind, lane, seq, records, recordCount, null);
    }

    /**
     * As {@link #append(int, int, long, MemorySegment, int)}, and hands the caller what the zero-block scan found,
     * so that a zeroed buffer pool can clear only the blocks that are not zero before the buffer is reused.
     *
     * @param nonZeroBlocks when not null, and the kind's records are of at least {@value #ZERO_BLOCKS_MIN_RECORD}
     *                      bytes (the writer scans their payload), called once before this method returns or throws
     *                      with the payload's block bitmap (bit {@code i % 64} of word {@code i / 64} set when block
     *                      {@code i} holds a non-zero byte; the array is the caller's to keep) and the block size,
     *                      {@value #ZERO_BLOCK_BYTES} bytes; not called for smaller records
     * @return the chunk's file offset, bytes
     * @throws IllegalArgumentException when the kind is unknown, the count is negative or the segment too small
     * @throws IllegalStateException    when the writer is closed
     * @throws IOException              when the file cannot be written (the writer is then failed)
     */
    public long append(int kind, int lane, long seq, MemorySegment records, int recordCount,
                       ObjIntConsumer<long[]> nonZeroBlocks) throws IOException {
        return append(kind, lane, seq, records, recordCount, null, nonZeroBlocks);
    }

    /**
     * As {@link #append(int, int, long, MemorySegment, int, ObjIntConsumer)}, with the zero-block scan reading only
     * the bytes of each record that {@code spans} names (for the deps submit record, its used deps and tensor
     * slots: about a tenth of its 4672 bytes), so the cost of a sparse kind's scan follows what its records hold,
     * not their size. The chunk is the one the other overloads write as long as every byte outside the spans is
     * zero; a non-zero byte in a block that no span overlaps is stored as zero (and is not in the bitmap handed to
     * {@code nonZeroBlocks}).
     *
     * @param spans where each record of the kind can hold a non-zero byte, or null to scan every byte; used only
     *              for kinds whose records are zero-block scanned (at least {@value #ZERO_BLOCKS_MIN_RECORD} bytes)
     *              and whose record size is a multiple of {@value #ZERO_BLOCK_BYTES}
     * @return the chunk's file offset, bytes
     * @throws IllegalArgumentException when the kind is unknown, the count is negative or the segment too small
     * @throws IllegalStateException    when the writer is closed
     * @throws IOException              when the file cannot be written (the writer is then failed)
     */
    public long append(int kind, int lane, long seq, MemorySegment records, int recordCount, RecordSpans spans,
                       ObjIntConsumer<long[]> nonZeroBlocks) throws IOException {
        BufferKind k = header.kind(kind);
        if (k == null) {
            throw new IllegalArgumentException(path + ": kind " + kind + " is not in the kind table");
        }
        long length = (long) recordCount * k.recordSize();
        if (recordCount < 0 || length > records.byteSize() || length > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException(path + ": " + recordCount + " records of kind " + k.name() + " ("
                    + k.recordSize() + " bytes each) do not fit a " + records.byteSize() + "-byte segment or a chunk");
        }
        MemorySegment payload = records.asSlice(0, length);
        long first = recordCount == 0 ? 0 : k.timestamp(payload, 0);
        long last = recordCount == 0 ? 0 : k.timestamp(payload, length - k.recordSize());
        long[] bits = k.recordSize() >= ZERO_BLOCKS_MIN_RECORD ? ZeroBlocks.bitmap(payload, k.recordSize(), spans) : null;
        if (bits != null && nonZeroBlocks != null) {
            nonZeroBlocks.accept(bits.clone(), ZeroBlocks.BLOCK);  // a copy: what is staged never depends on the caller
        }
        long encoded = bits == null ? length : ZeroBlocks.encodedLength(bits, length);
        boolean compact = encoded <= length - length / 4 && length > 0;
        int crc = compact ? 0 : ChunkFormat.crc32c(payload);  // an encoded payload's is taken where it is staged
        lock.lock();
        try {
            ensureWritable();
            long offset = written + staging.position();
            long stored = compact ? encoded : length;
            ChunkInfo c = new ChunkInfo(offset, kind, lane, seq, recordCount, k.recordSize(), first, last, crc,
                    compact ? ChunkInfo.ZERO_BLOCKS : 0, stored);
            int total = Math.toIntExact(ChunkFormat.CHUNK_HEADER_SIZE + ChunkFormat.align8(stored));
            if (total > staging.remaining()) {
                flushStaging();
            }
            index.add(total <= staging.remaining() ? stage(c, payload, bits) : writeLarge(c, payload, bits));
            recordTotal += recordCount;
            return offset;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hands every staged chunk to the operating system (no fsync).
     *
     * @throws IllegalStateException when the writer is closed
     * @throws IOException           when the file cannot be written (the writer is then failed)
     */
    public void flush() throws IOException {
        lock.lock();
        try {
            ensureWritable();
            flushStaging();
        } finally {
            lock.unlock();
        }
    }

    /** @return chunks appended so far */
    public long chunkCount() {
        lock.lock();
        try {
            return index.count();
        } finally {
            lock.unlock();
        }
    }

    /** @return records appended so far */
    public long recordCount() {
        lock.lock();
        try {
            return recordTotal;
        } finally {
            lock.unlock();
        }
    }

    /** @return file bytes so far, staged bytes included (index and trailer excluded until closed) */
    public long byteCount() {
        lock.lock();
        try {
            return written + staging.position();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes staged chunks, the chunk index and the trailer, and closes the file. When the writer has failed, only
     * closes the file (it then has no index, and a reader recovers it by scanning). Idempotent.
     *
     * @throws IOException when the file cannot be written or closed
     */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            try (FileChannel ch = channel) {
                if (!failed) {
                    flushStaging();
                    writeFully(ByteBuffer.wrap(index.encodeWithTrailer(written)));
                    indexed = true;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** @return whether the file was closed with its chunk index and trailer: every appended chunk is in it */
    public boolean complete() {
        lock.lock();
        try {
            return indexed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return the file system's error that failed the writer (a full disk, say), or null while it has not failed;
     *         later appends throw an exception of their own that only says the writer failed earlier
     */
    public IOException failure() {
        lock.lock();
        try {
            return failure;
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return the chunks whose {@link #append} returned but whose bytes did not all reach the file, because a later
     *         write of the staging buffer failed (a full disk): their records are lost although the caller counted
     *         them stored; empty unless a write failed. A chunk whose own append threw is not here (the caller knows)
     */
    public List<ChunkInfo> lostChunks() {
        lock.lock();
        try {
            return List.copyOf(lost);
        } finally {
            lock.unlock();
        }
    }

    private void ensureWritable() throws IOException {
        if (closed) {
            throw new IllegalStateException(path + ": chunk writer is closed");
        }
        if (failed) {
            throw new IOException(path + ": chunk writer failed earlier; no more chunks are written");
        }
    }

    /**
     * Copies header, payload (encoded when {@code c} says so) and padding into the staging buffer (the caller checked
     * that they fit).
     *
     * @return the chunk as written (with the encoded payload's checksum)
     */
    private ChunkInfo stage(ChunkInfo c, MemorySegment payload, long[] bits) {
        int at = staging.position();
        long payloadAt = at + ChunkFormat.CHUNK_HEADER_SIZE;
        if (c.zeroBlocks()) {
            ZeroBlocks.encode(payload, bits, stagingSegment, payloadAt);
            c = withCrc(c, stagingSegment.asSlice(payloadAt, c.storedLength()));
        } else {
            MemorySegment.copy(payload, 0, stagingSegment, payloadAt, payload.byteSize());
        }
        ChunkHeader.encode(stagingSegment, at, c);
        long end = payloadAt + ChunkFormat.align8(c.storedLength());
        stagingSegment.asSlice(payloadAt + c.storedLength(), end - payloadAt - c.storedLength()).fill((byte) 0);
        staging.position((int) end);
        staged.add(c);
        return c;
    }

    /**
     * Writes a chunk larger than the staging buffer straight from the caller's segment or the spill buffer.
     *
     * @return the chunk as written (with the encoded payload's checksum)
     */
    private ChunkInfo writeLarge(ChunkInfo c, MemorySegment payload, long[] bits) throws IOException {
        ByteBuffer body;
        if (c.zeroBlocks()) {
            int n = Math.toIntExact(c.storedLength());
            if (spill.capacity() < n) {
                spill = ByteBuffer.allocateDirect(n);
            }
            MemorySegment s = MemorySegment.ofBuffer(spill).asSlice(0, n);
            ZeroBlocks.encode(payload, bits, s, 0);
            c = withCrc(c, s);
            body = spill.duplicate().clear().limit(n);
        } else {
            try {
                body = payload.asByteBuffer();
            } catch (UnsupportedOperationException heapNotBytes) {
                body = ByteBuffer.wrap(payload.toArray(ValueLayout.JAVA_BYTE));
            }
        }
        largeHeader.clear();
        ChunkHeader.encode(MemorySegment.ofBuffer(largeHeader), 0, c);
        ByteBuffer pad = ZEROS.duplicate().limit((int) (ChunkFormat.align8(c.storedLength()) - c.storedLength()));
        ByteBuffer[] parts = {largeHeader, body, pad};
        long total = ChunkFormat.CHUNK_HEADER_SIZE + c.storedLength() + pad.remaining();
        try {
            for (long done = 0; done < total; ) {
                done += channel.write(parts);
            }
        } catch (IOException e) {
            fail(e);
            throw e;
        }
        written += total;
        return c;
    }

    private static ChunkInfo withCrc(ChunkInfo c, MemorySegment stored) {
        return new ChunkInfo(c.offset(), c.kind(), c.lane(), c.seq(), c.recordCount(), c.recordSize(),
                c.firstTimestamp(), c.lastTimestamp(), ChunkFormat.crc32c(stored), c.flags(), c.storedLength());
    }

    private void flushStaging() throws IOException {
        staging.flip();
        try {
            writeFully(staging);
        } catch (IOException e) {
            for (ChunkInfo c : staged) {
                if (c.end() > written) { // a write cut short still put the chunks before the cut on disk
                    lost.add(c);
                }
            }
            throw e;
        } finally {
            staging.clear();
            staged.clear();
        }
    }

    private void writeFully(ByteBuffer b) throws IOException {
        try {
            while (b.hasRemaining()) {
                written += channel.write(b);
            }
        } catch (IOException e) {
            fail(e);
            throw e;
        }
    }

    private void fail(IOException e) {
        if (!failed) {
            failed = true;
            failure = e;
        }
    }
}
