package dev.dfx.chunk;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Reads one chunk file ({@code RUN/chunks/<subsystem>.dfx}, format in {@code package-info.java}) through a
 * read-only memory mapping: its kind table, its chunks, each chunk's records as a {@link MemorySegment} slice, the
 * chunks of each lane in seq order, and the seq gaps (lost buffers) of each lane.
 *
 * <p>{@link #open} validates the whole file before returning: the file header, the trailer and index when the trailer
 * is valid, every chunk header against the kind table (and against its index entry), and every payload's CRC32C.
 * A file without a valid trailer (its writer died) is read by a sequential scan up to the last complete chunk; see
 * {@link #recovery()}.
 *
 * <p>Thread-safety: immutable after {@link #open}; every method may be called from any thread, and the segments it
 * returns may be read from any thread, until {@link #close()}. Reading a segment after close throws
 * {@link IllegalStateException}.
 */
public final class ChunkReader implements AutoCloseable {
    private final Path path;
    private final Arena arena;
    private final MemorySegment file;
    private final ChunkFileHeader header;
    private final List<ChunkInfo> chunks;
    private final List<LaneSequence> lanes;
    private final Recovery recovery;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ChunkReader(Path path, Arena arena, MemorySegment file, ChunkFileHeader header, List<ChunkInfo> chunks,
                        Recovery recovery) {
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.header = header;
        this.chunks = List.copyOf(chunks);
        this.lanes = chunks.isEmpty() ? List.of() : Lanes.group(chunks);
        this.recovery = recovery;
    }

    /**
     * Maps and validates a chunk file.
     *
     * @param path the chunk file
     * @return a reader over its complete chunks; close it to unmap the file
     * @throws IOException                     when the file cannot be opened or mapped
     * @throws dev.dfx.error.BadInputException when the file is not a valid chunk file (wrong magic, unsupported
     *                                         version, truncated file header, corrupt chunk header, index or trailer,
     *                                         checksum mismatch, record size that disagrees with the kind table),
     *                                         naming the file and byte offset; a torn last chunk of a file without
     *                                         a trailer is not an error
     */
    public static ChunkReader open(Path path) throws IOException {
        return open(path, null);
    }

    /**
     * Maps a chunk file and reads every chunk that is intact, skipping the damaged ones: a chunk whose header or
     * payload checksum fails, or that disagrees with its index entry, is left out and reported; an index that
     * cannot be used is replaced by a scan, and a scan that meets an unreadable chunk header goes on at the next
     * valid one. What a lenient reader returns is exactly what a strict one would return for the file with the
     * damaged chunks cut out.
     *
     * @param path   the chunk file
     * @param damage receives one {@link ChunkDamage} per skipped defect (on the calling thread, in file order);
     *               null reads strictly, as {@link #open(Path)}
     * @return a reader over the intact chunks; close it to unmap the file
     * @throws IOException                     when the file cannot be opened or mapped
     * @throws dev.dfx.error.BadInputException when the file header is not valid (nothing of the file can be read)
     */
    public static ChunkReader open(Path path, Consumer<ChunkDamage> damage) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            MemorySegment file = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena).asReadOnly();
            ChunkFileHeader header = ChunkFileHeader.decode(file, path);
            ChunkLoader.Loaded loaded = ChunkLoader.load(file, header, path, damage);
            return new ChunkReader(path, arena, file, header, loaded.chunks(), loaded.recovery());
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** @return the file this reader maps */
    public Path path() {
        return path;
    }

    /** @return the subsystem named in the file header (e.g. {@code "swimlane"}) */
    public String subsystem() {
        return header.subsystem();
    }

    /** @return the format version of the file: 1, 2 (chunks may be zero-block encoded) or 3 (it names its run) */
    public int formatVersion() {
        return header.version();
    }

    /** @return the run the file belongs to, from its header; empty for a version 1 or 2 file, which does not say */
    public Optional<RunId> runId() {
        return Optional.ofNullable(header.run());
    }

    /**
     * Narrows the reader to some of its chunks (a reader of a run directory leaves out chunks that do not belong to
     * the run). The mapping moves to the returned reader: close that one, not this one, which must not be used again.
     *
     * @param keep whether a chunk stays
     * @return a reader over the chunks that {@code keep} accepts, in file order, with the same header and recovery
     */
    public ChunkReader retain(Predicate<ChunkInfo> keep) {
        return new ChunkReader(path, arena, file, header, chunks.stream().filter(keep).toList(), recovery);
    }

    /** @return the kind table in file order */
    public List<BufferKind> kinds() {
        return header.kinds();
    }

    /**
     * @param id a kind id
     * @return the kind with this id
     * @throws IllegalArgumentException when the kind table has no such id
     */
    public BufferKind kind(int id) {
        BufferKind k = header.kind(id);
        if (k == null) {
            throw new IllegalArgumentException(path + " has no kind " + id);
        }
        return k;
    }

    /** @return every complete chunk in file order */
    public List<ChunkInfo> chunks() {
        return chunks;
    }

    /**
     * @param chunk a chunk of this file (from {@link #chunks()} or {@link #lanes()})
     * @return its records, {@code recordCount x recordSize} bytes, read-only, little-endian: a slice of the mapped
     *         file, or, for a zero-block chunk, a copy decoded on each call (it stays valid after {@link #close()} and
     *         is freed when unreachable; {@link #records(ChunkInfo, SegmentAllocator)} frees it sooner)
     */
    public MemorySegment records(ChunkInfo chunk) {
        return records(chunk, Arena.ofAuto());
    }

    /**
     * @param chunk a chunk of this file (from {@link #chunks()} or {@link #lanes()})
     * @param into  where a zero-block chunk is decoded (e.g. a confined arena closed after the records are read);
     *              not used for a chunk stored as it is
     * @return its records, {@code recordCount x recordSize} bytes, read-only, little-endian: a slice of the mapped
     *         file, or the decoded copy in {@code into}'s memory
     */
    public MemorySegment records(ChunkInfo chunk, SegmentAllocator into) {
        MemorySegment stored = file.asSlice(chunk.payloadOffset(), chunk.storedLength());
        return chunk.zeroBlocks() ? ZeroBlocks.decode(stored, chunk.payloadLength(), into) : stored;
    }

    /**
     * @param chunk a chunk of this file (from {@link #chunks()} or {@link #lanes()})
     * @param into  where a zero-block chunk is decoded, over the chunk decoded there before; not used for a chunk
     *              stored as it is
     * @return its records, {@code recordCount x recordSize} bytes, read-only, little-endian: a slice of the mapped
     *         file, or the decoded copy in {@code into}, valid until its next decode
     */
    public MemorySegment records(ChunkInfo chunk, DecodeBuffer into) {
        MemorySegment stored = file.asSlice(chunk.payloadOffset(), chunk.storedLength());
        return chunk.zeroBlocks() ? into.decode(stored, chunk.payloadLength()) : stored;
    }

    /** @return one sequence per (kind, lane), ordered by kind id then unsigned lane; chunks in seq order */
    public List<LaneSequence> lanes() {
        return lanes;
    }

    /**
     * @param kind a kind id
     * @param lane a lane number within the kind
     * @return the lane's chunk sequence, if the file has chunks of that (kind, lane)
     */
    public Optional<LaneSequence> lane(int kind, int lane) {
        return lanes.stream().filter(l -> l.kind() == kind && l.lane() == lane).findFirst();
    }

    /** @return whether the file was read through a valid index and trailer (its writer closed it) */
    public boolean complete() {
        return recovery == null;
    }

    /** @return how the file was read without an index, or empty when it was {@link #complete()} */
    public Optional<Recovery> recovery() {
        return Optional.ofNullable(recovery);
    }

    /** @return total records over all chunks */
    public long recordCount() {
        long n = 0;
        for (ChunkInfo c : chunks) {
            n += c.recordCount();
        }
        return n;
    }

    /** Unmaps the file; segments obtained from this reader become inaccessible. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }
}
