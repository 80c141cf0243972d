package dev.dfx.rundir;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.io.AtomicFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads and writes {@code run.json} ({@link RunManifest}), snake_case keys, pretty-printed. A write goes to a
 * temporary file first and is then renamed ({@link AtomicFile}), so a reader (or a crash, or a full disk) never sees
 * half a manifest. Stateless; thread-safe.
 *
 * <p>A write streams the manifest through Jackson's generator ({@link ManifestWriter}): the bytes Jackson's object
 * mapper gave, without the mapper. Reading keeps the mapper, made on the first read.
 */
public final class ManifestFile {
    /** The mapper that reads run.json, made on the first read (a recording only writes). */
    private static final class Reader {
        static final ObjectMapper JSON = new ObjectMapper()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

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
            write(os, m);
            return null;
        });
    }

    /**
     * Writes a manifest's JSON, as {@link #write(Path, RunManifest)} puts it in run.json.
     *
     * @param out receives the UTF-8 bytes; not closed
     * @throws IOException              from {@code out}
     * @throws IllegalArgumentException when a value in a subsystem's {@code details} is of a type run.json has no
     *                                  form for (a map, collection, string, number, boolean, enum, record of the
     *                                  manifest or null)
     */
    public static void write(OutputStream out, RunManifest m) throws IOException {
        ManifestWriter.write(out, m);
    }

    /**
     * Writes a run's final manifest, trying hard: when the whole manifest does not fit on the disk, once more without
     * the lanes' stall windows (counted as omitted), drop windows and depth series
     * ({@link RunManifest#withoutWindows}).
     *
     * @param runDir the run directory
     * @param m      the final manifest
     * @return the manifest written: {@code m}, or {@code m} without its windows
     * @throws IOException the second attempt's failure, when neither fits
     */
    public static RunManifest writeFinal(Path runDir, RunManifest m) throws IOException {
        try {
            write(runDir, m);
            return m;
        } catch (IOException e) {
            RunManifest small = m.withoutWindows("stall and drop windows left out of run.json: "
                    + IoErrors.describe(e));
            write(runDir, small);
            return small;
        }
    }

    /**
     * Reads and validates a manifest: format and version first, then every field of the schema (all are written
     * always; only {@code reason}, {@code end} and text notes may be null).
     *
     * @param runDir a run directory
     * @return its manifest
     * @throws BadInputException when the directory does not exist or has no run.json, it cannot be read, it is not
     *                           JSON, not of format dfx-run, of a version this code does not read, or a field is
     *                           missing, null or of the wrong type (one line naming the file and the field, e.g.
     *                           {@code subsystems[0].total})
     * @throws IOException       when the file cannot be read
     */
    public static RunManifest read(Path runDir) throws IOException {
        if (runDir.toString().isEmpty()) {
            // Path.of("") is the working directory: an empty argument must not read ./run.json
            throw new BadInputException("empty path; expected a run directory written by dfx record");
        }
        if (!Files.exists(runDir)) {
            throw new BadInputException(IoErrors.missing(runDir, "no such run directory; expected one written by dfx"
                    + " record", "expected a run directory written by dfx record"));
        }
        if (!Files.isDirectory(runDir)) {
            throw new BadInputException(runDir + ": not a run directory but a file; expected a run directory written"
                    + " by dfx record");
        }
        NotARun.refuse(runDir);
        Path f = of(runDir);
        RunManifest m;
        try {
            JsonNode tree = Reader.JSON.readTree(bytes(runDir, f));
            checkFormat(f, tree);
            String missing = ManifestProblems.missing(tree, RunManifest.class);
            if (missing != null) {
                throw new BadInputException(f + ": " + missing + "; expected a " + RunManifest.FORMAT + " manifest,"
                        + " version " + RunManifest.VERSION);
            }
            m = Reader.JSON.treeToValue(tree, RunManifest.class);
        } catch (JacksonException e) {
            throw new BadInputException(f + ": " + ManifestProblems.describe(e) + "; expected a " + RunManifest.FORMAT
                    + " manifest, version " + RunManifest.VERSION, e);
        }
        return m;
    }

    /**
     * @return run.json's bytes
     * @throws BadInputException when there is none, or it cannot be read: named with the real reason (an
     *                           unreadable run.json or a directory of that name is not "no run.json")
     */
    private static byte[] bytes(Path runDir, Path f) {
        try {
            return Files.readAllBytes(f);
        } catch (NoSuchFileException e) {
            throw new BadInputException(runDir + ": not a run directory (no " + RunManifest.FILE + ")", e);
        } catch (IOException e) {
            String why = Files.isDirectory(f) ? "it is a directory"
                    : e instanceof AccessDeniedException ? "permission denied" : IoErrors.describe(e);
            throw new BadInputException(f + ": cannot read (" + why + "); expected the run's manifest", e);
        }
    }

    /** Format and version before the fields, so that another JSON file is named for what it is not. */
    private static void checkFormat(Path f, JsonNode tree) {
        if (tree == null || !tree.isObject()) {
            throw new BadInputException(f + ": not a JSON object; expected a " + RunManifest.FORMAT + " manifest");
        }
        JsonNode format = tree.get("format");
        if (format == null || !RunManifest.FORMAT.equals(format.asText())) {
            throw new BadInputException(f + ": format " + (format == null ? "missing" : "'" + format.asText() + "'")
                    + ", expected '" + RunManifest.FORMAT + "'");
        }
        JsonNode version = tree.get("version");
        if (version == null || !version.canConvertToInt() || version.asInt() != RunManifest.VERSION) {
            throw new BadInputException(f + ": manifest version " + (version == null ? "missing" : version.toString())
                    + ", this dfx reads version " + RunManifest.VERSION);
        }
    }
}
