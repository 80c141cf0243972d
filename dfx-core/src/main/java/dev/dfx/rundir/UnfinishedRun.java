package dev.dfx.rundir;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import dev.dfx.region.RegionRemains;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * A run whose recording did not finish: its run.json still says {@code running} (the manifest written at the start,
 * never replaced by the final one) because its recorder was killed (SIGKILL, a second Ctrl-C, a crash). Such a
 * manifest has no subsystem counts, so nothing in it can say what was lost; the chunk files hold what reached the
 * disk. Every command that reads a run directory (report, script, dump, export, audit) treats it the same way: refused
 * while its recorder is alive, otherwise drawn from the chunk files (report and audit, which read run.json's counts,
 * show what the chunk files hold instead: {@link #refusal}) with one {@code dfx:} line from {@link #line} and exit
 * status 1. Stateless.
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
     *         program's run, where its names are read from: the strings file, written at the end, else the region
     *         file the recorder left; or that they are missing)
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
                        ? namesClause(run) : "");
    }

    /** @return what the line says about a program run's names: where they were read from, or that they are lost */
    private static String namesClause(Path run) {
        if (Files.isRegularFile(run.resolve(ProgramReport.STRINGS_FILE))) {
            return "; the program's names are read from " + ProgramReport.STRINGS_FILE + ", its threads from "
                    + ProgramReport.REGION_FILE + (remains(run) != null ? "" : " (unreadable: shown as lanes)");
        }
        if (remains(run) != null) {
            return "; the program's names and threads are read from the region it left, " + ProgramReport.REGION_FILE;
        }
        return "; the program's names are in " + ProgramReport.STRINGS_FILE + ", written at the end, so its user"
                + " events show their string ids";
    }

    /**
     * @param run a run directory whose run.json says running, of a program run
     * @return what the region file the killed recorder left in it says (lane owners, string tables), or null when
     *         there is none or it cannot be read (a damaged header, a file cut short)
     */
    public static RegionRemains remains(Path run) {
        Path file = run.resolve(ProgramReport.REGION_FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return RegionRemains.read(file);
        } catch (IOException | BadInputException e) {
            return null;
        }
    }

    /**
     * A program run's processes and threads as its readers name them: an unfinished run's run.json names none, and
     * the region file its recorder left names each lane's owner.
     *
     * @param run a run directory
     * @param m   its run.json, of a program run
     * @return run.json's {@code program}; for an unfinished run with a readable region file, with one process per pid
     *         that claimed a lane (in order of its first lane; counts 0, process state and lane status
     *         {@value #UNKNOWN}: only the final run.json would have had them) and its threads
     */
    public static ProgramReport program(Path run, RunManifest m) {
        ProgramReport program = m.program();
        RegionRemains remains = is(m) ? remains(run) : null;
        if (remains == null) {
            return program;
        }
        Map<Long, List<ProgramReport.ThreadLane>> threads = new LinkedHashMap<>();
        for (RegionRemains.Lane l : remains.lanes()) {
            threads.computeIfAbsent(l.pid(), k -> new ArrayList<>()).add(new ProgramReport.ThreadLane(l.tid(),
                    l.name(), l.lane(), UNKNOWN, null));
        }
        List<ProgramReport.Producer> procs = new ArrayList<>();
        threads.forEach((pid, t) -> procs.add(new ProgramReport.Producer(pid, t.stream()
                .filter(x -> x.tid() == pid && x.name() != null).map(ProgramReport.ThreadLane::name).findFirst()
                .orElse(null), UNKNOWN, 0, 0, 0, t)));
        return new ProgramReport(program.command(), program.pid(), program.exitStatus(), program.ended(),
                program.wallNs(), program.region(), program.stringsFile(), program.tsc(), program.unlanedDropped(),
                procs);
    }

    /**
     * For the commands that read run.json's counts (report, audit): a manifest that says running has none, so they
     * show what the chunk files hold instead.
     *
     * @param run    a run directory whose run.json says running
     * @param m      its manifest
     * @param damage collects what opening its chunk files finds wrong with them (printed before the refusal)
     * @param held   given the chunk files that could be opened, while they are open (to show what they hold)
     * @return the exception to throw: {@link #line} for the run
     * @throws BadInputException when its recorder is still alive ({@link #refuseLive}); {@code held} is not called
     */
    public static BadInputException refusal(Path run, RunManifest m, RunDamage damage,
                                            Consumer<List<ChunkReader>> held) {
        refuseLive(run);
        try (RunChunkFiles chunks = RunChunkFiles.open(run, m, damage)) {
            held.accept(chunks.readers());
            return new BadInputException(line(run, chunks.readers()));
        }
    }
}
