package dev.dfx.rundir;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A directory given as a run that holds neither a run.json nor a {@code chunks} folder (an empty directory among
 * them): nothing in it was written by dfx record. Every command that reads run directories (script, dump, report,
 * export, audit) refuses it with the same one line, before any option or part of a run is checked. Stateless.
 */
public final class NotARun {
    private NotARun() {
    }

    /**
     * @param dir a directory given as a run
     * @throws BadInputException when {@code dir} holds neither {@code run.json} nor {@code chunks}: one line naming it
     */
    public static void refuse(Path dir) {
        // an empty path is the working directory to Path, and is refused as an empty path where it is read
        if (dir.toString().isEmpty() || Files.exists(ManifestFile.of(dir))
            || Files.exists(dir.resolve(ChunkStore.FOLDER))) {
            return;
        }
        String what;
        try (var entries = Files.list(dir)) {
            what = entries.findAny().isEmpty() ? "an empty directory" : "not a run directory (neither "
                + RunManifest.FILE + " nor " + ChunkStore.FOLDER + "/ in it)";
        } catch (IOException | SecurityException e) {
            // the readers name what cannot be read there
            return;
        }
        throw new BadInputException(dir + ": " + what + "; expected a run directory written by dfx record, or a"
            + " perf.data file");
    }
}
