package dev.dfx.rundir;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.IoErrors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.zip.CRC32;

/**
 * The size and CRC32 of each derived output of a run directory (trace.json, pmu.csv, deps.json, args, scopes.jsonl),
 * recorded in run.json when the recording ends ({@link #seal}) and compared by {@code dfx report}
 * ({@link #check}), so that an output cut short or changed since is named instead of passed as intact. Chunk files
 * are left out: every chunk carries its own CRC32C. CRC32 runs at memory speed: 7-10 ms for a 30 MB file in the page
 * cache on the shared 2-core machine ({@link CRC32}, {@value #READ_BYTES}-byte reads). Stateless; thread-safe.
 */
public final class OutputSeal {
    /** Bytes read per call while computing a digest. */
    private static final int READ_BYTES = 64 * 1024;

    private OutputSeal() {
    }

    /** @return whether {@code o} is an output derived from the chunk files, which a seal covers */
    static boolean derived(OutputFile o) {
        return o.written() && !o.path().startsWith(ChunkStore.FOLDER + "/");
    }

    /**
     * @param runDir the run directory
     * @param o      an output entry
     * @return {@code o} with its file's size and CRC32 when it is a written derived output that can be read, else
     *         {@code o} as it is
     */
    public static OutputFile seal(Path runDir, OutputFile o) {
        if (!derived(o)) {
            return o;
        }
        try {
            Digest d = digest(runDir.resolve(o.path()));
            return o.sealed(d.bytes(), d.crc32());
        } catch (IOException e) {
            return o; // nothing to compare with later; report still finds a missing file
        }
    }

    /**
     * @param runDir the run directory
     * @param o      an output entry of its run.json
     * @return what is wrong with the file against its entry (missing, another size, another CRC32), or null when it
     *         matches or the entry has no seal
     */
    public static String check(Path runDir, OutputFile o) {
        if (!derived(o) || o.bytes() == null || o.crc32() == null) {
            return null;
        }
        Digest d;
        try {
            d = digest(runDir.resolve(o.path()));
        } catch (NoSuchFileException e) {
            return "missing; run.json lists it as written";
        } catch (IOException e) {
            return "cannot be read (" + IoErrors.describe(e) + ")";
        }
        if (d.bytes() != o.bytes()) {
            return d.bytes() + " bytes, run.json says " + o.bytes() + " (cut short or changed since the recording)";
        }
        if (!d.crc32().equalsIgnoreCase(o.crc32())) {
            return "CRC32 " + d.crc32() + ", run.json says " + o.crc32() + " (changed since the recording)";
        }
        return null;
    }

    private record Digest(long bytes, String crc32) {
    }

    private static Digest digest(Path file) throws IOException {
        CRC32 crc = new CRC32();
        long n = 0;
        byte[] buf = new byte[READ_BYTES];
        try (InputStream in = Files.newInputStream(file)) {
            for (int r; (r = in.read(buf)) > 0; ) {
                crc.update(buf, 0, r);
                n += r;
            }
        }
        return new Digest(n, HexFormat.of().toHexDigits((int) crc.getValue()));
    }
}
