package dev.dfx.runtime.recording;

import dev.dfx.io.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * Disk space kept for the final run.json: a file {@code RUN/.run.json.reserve} of real (not sparse) bytes written
 * when the recording starts and deleted just before the final manifest is written, so that a recording that fills
 * the disk with chunks can still say in run.json how it ended. Best effort: when the space is not there at the
 * start, the recording goes on without it. Not thread-safe; used by the recording session.
 */
public final class ManifestReserve {
    /** File name in the run directory. */
    static final String FILE = ".run.json.reserve";
    /** Space kept for the final run.json besides its lanes, bytes. */
    private static final long BYTES = 64 << 10;
    /** Space kept for the final run.json per lane (its counts, without stall windows), bytes. */
    private static final long PER_LANE = 4 << 10;

    private final Path file;

    private ManifestReserve(Path file) {
        this.file = file;
    }

    /**
     * @param runDir the run directory
     * @param bytes  space to keep, bytes
     * @return the reserve (empty when the space could not be written)
     */
    private static ManifestReserve create(Path runDir, long bytes) {
        Path f = runDir.resolve(FILE);
        try (FileChannel ch = FileChannel.open(f, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                OwnerOnly.forNewFile(f))) {
            ByteBuffer zeros = ByteBuffer.allocate(1 << 16);
            for (long left = bytes; left > 0; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), left));
                left -= ch.write(zeros);
            }
            ch.force(false);
        } catch (IOException e) {
            release(f);
        }
        return new ManifestReserve(f);
    }

    /**
     * @param runDir the run directory
     * @param lanes  the run's pipeline lanes, all subsystems together
     * @return the reserve for a run of that many lanes (empty when the space could not be written)
     */
    public static ManifestReserve forLanes(Path runDir, long lanes) {
        return create(runDir, BYTES + PER_LANE * lanes);
    }

    /** Frees the space (before the final manifest is written); idempotent. */
    public void release() {
        release(file);
    }

    private static void release(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            // nothing more can be done; the final write will say whether there was room
        }
    }
}
