package dev.dfx.runtime.subsystem;

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
 */
public record OutputFile(String path, boolean written, long entries, String note) {
    /** @return a written file holding {@code entries} entries */
    public static OutputFile written(String path, long entries) {
        return new OutputFile(path, true, entries, null);
    }

    /** @return a file that was not written, and why */
    public static OutputFile refused(String path, String why) {
        return new OutputFile(path, false, 0, why);
    }
}
