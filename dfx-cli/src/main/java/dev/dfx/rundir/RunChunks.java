package dev.dfx.rundir;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.BadInputException;
import java.io.IOException;
import java.lang.foreign.StructLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The chunk files of a run directory ({@code RUN/chunks/<subsystem>.dfx}) opened for listing, with each kind's
 * record schema looked up once. Close it to unmap the files. Not thread-safe.
 */
final class RunChunks implements AutoCloseable {
    private final Path run;
    private final List<ChunkReader> readers;
    private final Map<ChunkReader, Map<Integer, StructLayout>> layouts = new HashMap<>();

    private RunChunks(Path run, List<ChunkReader> readers) {
        this.run = run;
        this.readers = readers;
    }

    /**
     * @param run a run directory
     * @return its chunk files, in file-name order
     * @throws BadInputException when it has no chunk files or one cannot be read or is damaged (naming the file and
     *                           byte offset)
     */
    static RunChunks open(Path run) {
        List<ChunkReader> readers;
        try {
            readers = ChunkStore.openAll(run);
        } catch (IOException e) {
            throw new BadInputException(run + ": cannot read the chunk files: " + e.getMessage(), e);
        }
        if (readers.isEmpty()) {
            throw new BadInputException(run + ": no chunk files in " + run.resolve(ChunkStore.FOLDER)
                + "; expected a run directory written by dfx record");
        }
        return new RunChunks(run, readers);
    }

    /** @return the open chunk files */
    List<ChunkReader> readers() {
        return readers;
    }

    /** @return {@code f}'s path relative to the run directory, as the listings name it */
    String name(ChunkReader f) {
        return run.relativize(f.path()).toString();
    }

    /** @return the record schema of kind {@code kind} of file {@code f}, or {@code null} when it has none */
    StructLayout layout(ChunkReader f, int kind) {
        return layouts.computeIfAbsent(f, k -> new HashMap<>()).computeIfAbsent(kind, id -> {
            BufferKind k = f.kind(id);
            return RecordLayouts.of(f.subsystem(), k.name(), k.recordSize());
        });
    }

    @Override
    public void close() {
        readers.forEach(ChunkReader::close);
    }
}
