package dev.dfx.runtime.recording;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.dfx.error.BadInputException;
import dev.dfx.io.AtomicFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads and writes {@code run.json} ({@link RunManifest}) with Jackson, snake_case keys, pretty-printed. A write
 * goes to a temporary file first and is then renamed ({@link AtomicFile}), so a reader (or a crash, or a full disk)
 * never sees half a manifest.
 * Stateless; thread-safe.
 */
public final class ManifestFile {
    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ManifestFile() {
    }

    /** @return {@code runDir/run.json} */
    public static Path of(Path runDir) {
        return runDir.resolve(RunManifest.FILE);
    }

    /**
     * @param runDir the run directory
     * @param m      the manifest
     * @throws IOException when the file cannot be written
     */
    public static void write(Path runDir, RunManifest m) throws IOException {
        AtomicFile.write(of(runDir), os -> {
            JSON.writeValue(os, m);
            return null;
        });
    }

    /**
     * @param runDir a run directory
     * @return its manifest
     * @throws BadInputException when the directory has no run.json, it is not JSON of format dfx-run, or its
     *                           version is not one this code reads
     * @throws IOException       when the file cannot be read
     */
    public static RunManifest read(Path runDir) throws IOException {
        Path f = of(runDir);
        RunManifest m;
        try {
            m = JSON.readValue(f.toFile(), RunManifest.class);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new BadInputException(runDir + ": not a run directory (no " + RunManifest.FILE + ")", e);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            String where = e.getLocation() == null ? "" : " at byte " + e.getLocation().getByteOffset();
            throw new BadInputException(f + where + ": not a valid run manifest (" + e.getOriginalMessage() + ")", e);
        }
        if (!RunManifest.FORMAT.equals(m.format())) {
            throw new BadInputException(f + ": format '" + m.format() + "', expected '" + RunManifest.FORMAT + "'");
        }
        if (m.version() != RunManifest.VERSION) {
            throw new BadInputException(f + ": manifest version " + m.version() + ", this dfx reads version "
                    + RunManifest.VERSION);
        }
        return m;
    }
}
