package dev.dfx.rundir;



/**
 * One output file of a run directory, as run.json lists it. Immutable.
 *
 * @param path    path relative to the run directory, e.g. {@code deps.json}
 * @param written whether the file was written
 * @param entries how many entries it holds, 0 when not written (except a chunk file cut short by a failed write: the
 *                records it holds): records of a chunk file, rows of pmu.csv, tasks of
 *                deps.json, arguments of args.json, payloads of args.bin, records of scopes.jsonl, events of a trace
 *                (never bytes)
 * @param note    why it was not written, or a short remark; null when there is nothing to say
 * @param bytes   the file's size in bytes when the recording ended, for a written output derived from the chunk files
 *                (not for the chunk files, which check themselves); null when not recorded (older run.json files)
 * @param crc32   the CRC32 (java.util.zip.CRC32, the zlib/PNG polynomial) of those bytes, 8 lowercase hex digits;
 *                null with {@code bytes}
 */
public record OutputFile(String path, boolean written, long entries, String note, @OptionalField Long bytes,
                         @OptionalField String crc32) {
    /** An entry without size and checksum (they are added when the recording ends). */
    public OutputFile(String path, boolean written, long entries, String note) {
        this(path, written, entries, note, null, null);
    }

    /** @return a written file holding {@code entries} entries */
    public static OutputFile written(String path, long entries) {
        return new OutputFile(path, true, entries, null);
    }

    /** @return a file that was not written, and why */
    public static OutputFile refused(String path, String why) {
        return new OutputFile(path, false, 0, why);
    }

    /** @return this entry with the file's size and CRC32 */
    public OutputFile sealed(long size, String crc) {
        return new OutputFile(path, written, entries, note, size, crc);
    }
}
