package dev.dfx.rundir;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A run whose recording did not finish: its run.json still says {@code running} (the manifest written at the start,
 * never replaced by the final one) because its recorder was killed (SIGKILL, a second Ctrl-C, a crash). Such a
 * manifest has no subsystem counts, so nothing in it can say what was lost; the chunk files hold what reached the
 * disk. Every command that reads a run directory (report, script, dump, export, audit) treats it the same way: refused
 * while its recorder is alive, otherwise drawn from the chunk files (report and audit, which read run.json's counts,
 * draw nothing: {@link #refusal}) with one {@code dfx:} line from {@link #line} and exit status 1. Stateless.
 */
public final class UnfinishedRun {
    /** What a trace or listing says about counts that only the final manifest would have had. */
    public static final String UNKNOWN = "unknown: the recording did not finish";

    private UnfinishedRun() {
    }

    /** @return whether {@code m} (null: no manifest) is the manifest of a recording that has not finished */
    public static boolean is(RunManifest m) {
        return m != null && m.status().equals(RunManifest.RUNNING);
    }

    /**
     * @param run a run directory whose run.json says running
     * @throws BadInputException when its recorder is still alive (naming its pid): the files are still being written
     */
    public static void refuseLive(Path run) {
        OptionalLong pid = RunLock.holder(run);
        if (pid.isPresent() && RunLock.alive(pid.getAsLong())) {
            throw new BadInputException(run + ": still being recorded by dfx record (pid " + pid.getAsLong()
                    + "); run this command again when it has ended");
        }
    }

    /**
     * @param run     a run directory whose run.json says running
     * @param readers its chunk files that could be opened
     * @return the one line that says so, naming the recorder that is gone and what each chunk file holds (and, for a
     *         program's run, that its names are missing: the strings file is written at the end)
     */
    public static String line(Path run, List<ChunkReader> readers) {
        OptionalLong pid = RunLock.holder(run);
        List<String> held = new ArrayList<>();
        for (ChunkReader r : readers) {
            held.add(r.subsystem() + " " + Count.of(r.chunks().size(), "chunk") + " "
                    + Count.of(r.recordCount(), "record"));
        }
        return run + ": the recording did not finish (run.json still says running"
                + (pid.isPresent() ? "; its recorder, pid " + pid.getAsLong() + ", is gone" : "")
                + "); recoverable from the chunk files: " + (held.isEmpty() ? "nothing" : String.join(", ", held))
                + " (dfx script and dfx dump list them)"
                + (readers.stream().anyMatch(r -> r.subsystem().equals(ProgramReport.SUBSYSTEM))
                        ? "; the program's names are in " + ProgramReport.STRINGS_FILE + ", written at the end, so its"
                        + " user events show their string ids" : "");
    }

    /**
     * For the commands that read only run.json's counts (report, audit): a manifest that says running has none.
     *
     * @param run    a run directory whose run.json says running
     * @param m      its manifest
     * @param damage collects what opening its chunk files finds wrong with them (printed before the refusal)
     * @return the exception to throw: {@link #line} for the run
     * @throws BadInputException when its recorder is still alive ({@link #refuseLive})
     */
    public static BadInputException refusal(Path run, RunManifest m, RunDamage damage) {
        refuseLive(run);
        try (RunChunkFiles chunks = RunChunkFiles.open(run, m, damage)) {
            return new BadInputException(line(run, chunks.readers()));
        }
    }
}
