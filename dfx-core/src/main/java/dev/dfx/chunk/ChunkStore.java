package dev.dfx.chunk;

import dev.dfx.io.OwnerOnly;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where chunk files live in a run directory: {@code RUN/chunks/<subsystem>.dfx}, one file per subsystem.
 * Stateless; thread-safe.
 */
public final class ChunkStore {
    /** Folder of the chunk files inside a run directory. */
    public static final String FOLDER = "chunks";
    /** File name extension of a chunk file. */
    public static final String EXTENSION = ".dfx";

    private ChunkStore() {
    }

    /**
     * @param runDir    the run directory
     * @param subsystem subsystem name, e.g. {@code "swimlane"}
     * @return {@code runDir/chunks/<subsystem>.dfx} (the folder is not created)
     */
    public static Path file(Path runDir, String subsystem) {
        return runDir.resolve(FOLDER).resolve(subsystem + EXTENSION);
    }

    /**
     * @param file any path
     * @return whether it is a readable file that starts with a chunk file's magic ({@code DFXCHUNK}), to name it for
     *         what it is where another format was expected
     */
    public static boolean isChunkFile(Path file) {
        if (!Files.isRegularFile(file)) {
            return false; // a FIFO's bytes would be gone for its real reader
        }
        byte[] head = new byte[8];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, 8) < 8) {
                return false;
            }
        } catch (IOException | RuntimeException e) {
            return false; // the caller's own reader says what is wrong with it
        }
        return ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getLong() == ChunkFormat.FILE_MAGIC;
    }

    /**
     * Creates {@code runDir/chunks/<subsystem>.dfx} (and the {@code chunks} folder) for writing, as the only file of
     * a run of its own (a fresh {@link RunId#random()}); see {@link ChunkWriter#create(Path, String, List)}.
     *
     * @param runDir    the run directory
     * @param subsystem subsystem name, 1..255 bytes of UTF-8
     * @param kinds     the kind table
     * @return the writer; close it to write the chunk index
     * @throws IOException when the folder or file cannot be created
     */
    public static ChunkWriter create(Path runDir, String subsystem, List<BufferKind> kinds) throws IOException {
        return create(runDir, RunId.random(), subsystem, kinds);
    }

    /**
     * Creates {@code runDir/chunks/<subsystem>.dfx} (and the {@code chunks} folder) for writing, naming run
     * {@code run} in its header; see {@link ChunkWriter#create(Path, RunId, String, List)}.
     *
     * @param runDir    the run directory
     * @param run       the run's id (its run.json's {@code run_id})
     * @param subsystem subsystem name, 1..255 bytes of UTF-8
     * @param kinds     the kind table
     * @return the writer; close it to write the chunk index
     * @throws IOException when the folder or file cannot be created
     */
    public static ChunkWriter create(Path runDir, RunId run, String subsystem, List<BufferKind> kinds)
            throws IOException {
        Path file = file(runDir, subsystem);
        OwnerOnly.createFolders(file.getParent());
        return ChunkWriter.create(file, run, subsystem, kinds);
    }

    /**
     * Opens every chunk file of a run directory, in file-name order.
     *
     * @param runDir the run directory
     * @return the readers (the caller closes them); empty when the run has no {@code chunks} folder
     * @throws IOException                     when a file cannot be listed, opened or mapped
     * @throws dev.dfx.error.BadInputException when a file is not a valid chunk file (readers opened so far are closed)
     */
    public static List<ChunkReader> openAll(Path runDir) throws IOException {
        Path folder = runDir.resolve(FOLDER);
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(folder)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(EXTENSION)).sorted().toList();
        }
        List<ChunkReader> readers = new ArrayList<>(files.size());
        try {
            for (Path f : files) {
                readers.add(ChunkReader.open(f));
            }
        } catch (IOException | RuntimeException e) {
            readers.forEach(ChunkReader::close);
            throw e;
        }
        return List.copyOf(readers);
    }
}
