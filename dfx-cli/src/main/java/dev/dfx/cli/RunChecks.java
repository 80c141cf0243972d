package dev.dfx.cli;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.OutputSeal;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code dfx report} and {@code dfx audit} check of a finished run directory before trusting its run.json: the
 * chunk files are intact ({@link RunChunkFiles}), every other output run.json lists as written is there with the
 * size and CRC32 it recorded ({@link OutputSeal}), and each subsystem's counts add up. Stateless.
 */
final class RunChecks {
    private RunChecks() {
    }

    /**
     * @param run    a run directory
     * @param m      its run.json, of a finished recording
     * @param damage receives one line per damaged or missing part (a chunk file: its first damaged byte offset)
     */
    static void check(Path run, RunManifest m, RunDamage damage) {
        try (RunChunkFiles chunks = RunChunkFiles.open(run, m, damage)) {
            // opening checks every chunk; the summary and the audit themselves come from run.json
        }
        for (OutputFile o : m.outputs()) {
            if (!o.written() || chunkFileChecked(m, o)) {
                continue;
            }
            String problem = OutputSeal.check(run, o);
            if (problem == null && !Files.exists(run.resolve(o.path()))) {
                problem = "missing; run.json lists it as written"; // a run.json without sizes and checksums
            }
            if (problem != null) {
                damage.add(run.resolve(o.path()) + ": " + problem + "; " + rebuild(run, o));
            }
        }
        checkCounts(run, m, damage);
    }

    /**
     * Each subsystem's row must add up, as the recorder wrote it: no negative count, and total = collected + dropped +
     * silent loss (a hand-edited or damaged run.json otherwise prints a table that contradicts itself).
     */
    private static void checkCounts(Path run, RunManifest m, RunDamage damage) {
        for (int i = 0; i < m.subsystems().size(); i++) {
            RunManifest.SubsystemReport s = m.subsystems().get(i);
            String where = ManifestFile.of(run) + ": subsystems[" + i + "] (" + s.name() + "): ";
            if (s.total() < 0 || s.collected() < 0 || s.dropped() < 0 || s.silentLoss() < 0) {
                damage.add(where + "a negative count (total " + s.total() + ", collected " + s.collected()
                        + ", dropped " + s.dropped() + ", silent_loss " + s.silentLoss() + ")");
            } else if (s.total() != s.collected() + s.dropped() + s.silentLoss()) {
                damage.add(where + "total " + s.total() + " is not collected " + s.collected() + " + dropped "
                        + s.dropped() + " + silent_loss " + s.silentLoss());
            }
        }
    }

    /** @return how to get a damaged output back: the trace is redrawn by export, the others only by recording again */
    private static String rebuild(Path run, OutputFile o) {
        if (o.path().equals(RunTraceExporter.FILE)) {
            return "rebuild it with: dfx export " + run + " -o " + run.resolve(o.path());
        }
        return "dfx cannot rebuild it; its records are in the chunk files (dfx script " + run + " lists them)";
    }

    /** @return whether {@code o} is the chunk file of a subsystem run.json lists, which {@link RunChunkFiles} checked */
    private static boolean chunkFileChecked(RunManifest m, OutputFile o) {
        String p = o.path();
        String prefix = ChunkStore.FOLDER + "/";
        return p.startsWith(prefix) && p.endsWith(ChunkStore.EXTENSION) && m.subsystem(p.substring(prefix.length(),
                p.length() - ChunkStore.EXTENSION.length())) != null;
    }
}
