package dev.dfx.rundir;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.IoErrors;
import dev.dfx.io.AtomicFile;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * cache on the shared 2-core machine ({@link CRC32}, {@value #READ_BYTES}-byte reads). A large output is better written
 * through {@link #write}, which computes its seal from the bytes on their way to the file, so that nothing is read
 * back; {@link #seal} leaves such an entry as it is. Stateless; thread-safe.
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
     * What {@link #write} wrote.
     *
     * @param value  what the body returned
     * @param bytes  the file's size, bytes
     * @param crc32  the CRC32 of its bytes, 8 lowercase hex digits
     * @param <T>    the body's result
     */
    public record Written<T>(T value, long bytes, String crc32) {
        /** @return {@code o} with this file's size and CRC32 */
        public OutputFile seal(OutputFile o) {
            return o.sealed(bytes, crc32);
        }
    }

    /**
     * Writes a file as {@link AtomicFile#write} does, computing its size and CRC32 from the bytes the body writes.
     *
     * @param target the file to create or replace
     * @param body   writes the content
     * @return the body's result and the file's seal (valid: the file exists only when the body completed)
     * @throws IOException as {@link AtomicFile#write} throws it
     */
    public static <T> Written<T> write(Path target, AtomicFile.Body<T> body) throws IOException {
        CRC32 crc = new CRC32();
        long[] bytes = {0};
        T value = AtomicFile.write(target, os -> body.write(new FilterOutputStream(os) {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
                crc.update(b);
                bytes[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                crc.update(b, off, len);
                bytes[0] += len;
            }
        }));
        return new Written<>(value, bytes[0], hex(crc));
    }

    /**
     * @param runDir the run directory
     * @param o      an output entry
     * @return {@code o} with its file's size and CRC32 when it is a written derived output that can be read, else
     *         {@code o} as it is; an entry that has them already ({@link #write}) as it is
     */
    public static OutputFile seal(Path runDir, OutputFile o) {
        if (!derived(o) || o.bytes() != null) {
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
        return new Digest(n, hex(crc));
    }

    private static String hex(CRC32 crc) {
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }
}
