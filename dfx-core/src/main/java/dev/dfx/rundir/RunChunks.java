package dev.dfx.rundir;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import java.io.IOException;
import java.lang.foreign.StructLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The chunk files of a run directory ({@code RUN/chunks/<subsystem>.dfx}) opened for listing, with each kind's
 * record schema looked up once. Damaged files give what is readable ({@link RunChunkFiles}); run.json, when the
 * directory has one, tells which files should be there. Close it to unmap the files. Not thread-safe.
 */
public final class RunChunks implements AutoCloseable {
    private final Path run;
    private final RunChunkFiles files;
    private final List<ChunkReader> readers;
    private final RunManifest manifest;
    private final Map<ChunkReader, Map<Integer, StructLayout>> layouts = new HashMap<>();

    private RunChunks(Path run, RunChunkFiles files, RunManifest manifest) {
        this.run = run;
        this.files = files;
        this.readers = files.readers();
        this.manifest = manifest;
    }

    /**
     * @param run    a run directory
     * @param damage receives one line per damaged, missing or unreadable part: run.json when it is missing or
     *               unreadable, and a recording that did not finish ({@link UnfinishedRun}) after the chunk files'
     *               own lines
     * @return its readable chunk files, in file-name order
     * @throws BadInputException when it has neither a run.json nor a chunk file, or its recorder is still running
     */
    public static RunChunks open(Path run, RunDamage damage) {
        NotARun.refuse(run);
        RunManifest m = null;
        String noManifest = null;
        if (!Files.exists(ManifestFile.of(run))) {
            noManifest = run + ": not a run directory (no " + RunManifest.FILE + "); listed the chunk files without it";
        } else {
            try {
                m = ManifestFile.read(run);
            } catch (BadInputException e) {
                damage.add(e.getMessage() + "; listed the chunk files without it");
            } catch (IOException e) {
                damage.add(ManifestFile.of(run) + ": cannot be read (" + IoErrors.describe(e)
                        + "); listed the chunk files without it");
            }
        }
        if (UnfinishedRun.is(m)) {
            UnfinishedRun.refuseLive(run);
        }
        RunChunkFiles files = RunChunkFiles.open(run, m, damage);
        if (files.readers().isEmpty() && m == null && damage.none()) {
            files.close();
            throw new BadInputException(run + ": no chunk files in " + run.resolve(ChunkStore.FOLDER)
                + "; expected a run directory written by dfx record");
        }
        if (noManifest != null) {
            damage.add(noManifest);
        }
        if (UnfinishedRun.is(m)) {
            damage.add(UnfinishedRun.line(run, files.readers()));
        }
        return new RunChunks(run, files, m);
    }

    /** @return the run directory */
    public Path runDir() {
        return run;
    }

    /** @return its run.json, or null when it has none or it could not be read (a damage line says so) */
    public RunManifest manifest() {
        return manifest;
    }

    /** @return the open chunk files */
    public List<ChunkReader> readers() {
        return readers;
    }

    /** @return {@code f}'s path relative to the run directory, as the listings name it */
    public String name(ChunkReader f) {
        return run.relativize(f.path()).toString();
    }

    /** @return the record schema of kind {@code kind} of file {@code f}, or {@code null} when it has none */
    public StructLayout layout(ChunkReader f, int kind) {
        return layouts.computeIfAbsent(f, k -> new HashMap<>()).computeIfAbsent(kind, id -> {
            BufferKind k = f.kind(id);
            return RecordLayouts.of(f.subsystem(), k.name(), k.recordSize());
        });
    }

    @Override
    public void close() {
        files.close();
    }
}
