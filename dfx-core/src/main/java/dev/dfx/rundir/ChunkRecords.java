package dev.dfx.rundir;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.chunk.DecodeBuffer;
import dev.dfx.chunk.LaneSequence;
import dev.dfx.error.BadInputException;
import dev.dfx.record.Subsystem;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Walks the records of one kind in a subsystem's chunk file: lane by lane (ascending lane number, i.e. core,
 * scheduler or 0 for the orchestrator), each lane's chunks in seq order, each chunk's records in order, which is
 * the order the lane's writer thread wrote them. A record segment is valid during its visitor call only (a
 * zero-block chunk is decoded into one {@link DecodeBuffer} that the walk reuses for every chunk, and frees at its end: a
 * deps chunk decodes to megabytes, and allocating or zeroing them per chunk cost more than the decoding).
 * Stateless; thread-safe.
 */
public final class ChunkRecords {
    /** Receives one record. */
    @FunctionalInterface
    public interface Visitor {
        /**
         * @param lane    the lane number (the writer thread's instance)
         * @param records the chunk's records, little-endian, read-only
         * @param offset  byte offset of this record in {@code records}
         * @throws IOException when the visitor's output fails
         */
        void record(int lane, MemorySegment records, long offset) throws IOException;
    }

    private ChunkRecords() {
    }

    /**
     * @param reader a chunk file
     * @param kind   one of its subsystem's buffer kinds
     * @param v      receives every record of that kind
     * @return records visited
     * @throws IOException from the visitor
     */
    public static long forEach(ChunkReader reader, BufferKind kind, Visitor v) throws IOException {
        return walk(reader, kind, LaneSequence::chunks, v);
    }

    /**
     * {@link #forEach} over each lane's {@link LaneSequence#unbroken() unbroken} chunks only: the records that follow
     * one another from the lane's first buffer with none lost before them, so that a reader whose records depend on
     * every earlier one of the lane (a replay of submits) reads no record whose predecessors are missing. A file cut
     * short or with a chunk skipped yields the records before the first loss.
     *
     * @return records visited
     * @throws IOException from the visitor
     */
    public static long forEachUnbroken(ChunkReader reader, BufferKind kind, Visitor v) throws IOException {
        return walk(reader, kind, LaneSequence::unbroken, v);
    }

    private static long walk(ChunkReader reader, BufferKind kind, Function<LaneSequence, List<ChunkInfo>> chunksOf,
                             Visitor v) throws IOException {
        int kindId = kind.id();
        long n = 0;
        try (DecodeBuffer decoded = new DecodeBuffer()) {
            for (LaneSequence lane : reader.lanes()) {
                if (lane.kind() != kindId) {
                    continue;
                }
                for (ChunkInfo c : chunksOf.apply(lane)) {
                    MemorySegment records = reader.records(c, decoded);
                    for (int i = 0; i < c.recordCount(); i++) {
                        v.record(lane.lane(), records, (long) i * c.recordSize());
                        n++;
                    }
                }
            }
        }
        return n;
    }

    /**
     * Opens a run's chunk file of one subsystem.
     *
     * @return the reader, or null when the run has no chunk file for it
     * @throws IOException when the file cannot be opened
     * @throws BadInputException when it is damaged
     */
    public static ChunkReader open(Path runDir, Subsystem subsystem) throws IOException {
        Path f = ChunkStore.file(runDir, subsystem.id());
        return Files.exists(f) ? ChunkReader.open(f) : null;
    }
}
