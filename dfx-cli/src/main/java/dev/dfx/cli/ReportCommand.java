package dev.dfx.cli;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.BadInputException;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.OutputSeal;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.UnfinishedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dfx report RUN}: the summary of a run directory, read back from its run.json (text, or {@code --json}),
 * after checking that the files run.json lists are there and the chunk files are intact ({@link RunChunkFiles}: one
 * line per damage on stderr). A run whose run.json still says {@code running} did not finish (its recorder was
 * killed, or could not write its final manifest): one line says so and what the chunk files still hold. Exit status
 * as {@code dfx record}'s ({@link RunSummary#exitStatus}), and 1 when anything is damaged or missing or the run did
 * not finish. Each derived output (trace.json, pmu.csv, ...) is checked against the size and CRC32 run.json recorded
 * for it ({@link OutputSeal}): one line per output missing, cut short or changed, saying how to rebuild it.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Counts, reconcile, stalls and watermarks of a run directory.")
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN", description = "A run directory written by dfx record.")
    Path run;

    @Option(names = "--json", description = "Print the summary as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        RunManifest m = ManifestFile.read(run);
        RunDamage damage = new RunDamage();
        if (UnfinishedRun.is(m)) {
            unfinished(m, damage);
        }
        try (RunChunkFiles chunks = RunChunkFiles.open(run, m, damage)) {
            // opening checks every chunk; the summary itself comes from run.json
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
                damage.add(run.resolve(o.path()) + ": " + problem + "; " + rebuild(o));
            }
        }
        checkCounts(m, damage);
        if (json) {
            RunSummary.json(run, m, spec.commandLine().getOut());
        } else {
            RunSummary.text(run, m, spec.commandLine().getOut());
        }
        int status = DamageLines.print(damage, spec.commandLine().getErr());
        return status != 0 ? status : RunSummary.exitStatus(m);
    }

    /**
     * Each subsystem's row must add up, as the recorder wrote it: no negative count, and total = collected + dropped +
     * silent loss (a hand-edited or damaged run.json otherwise prints a table that contradicts itself).
     */
    private void checkCounts(RunManifest m, RunDamage damage) {
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
    private String rebuild(OutputFile o) {
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

    /**
     * A run.json that says {@code running}: refused in one line, naming what the chunk files still hold
     * ({@link UnfinishedRun}); there is no summary to print.
     *
     * @throws BadInputException always
     */
    private void unfinished(RunManifest m, RunDamage damage) {
        BadInputException refusal = UnfinishedRun.refusal(run, m, damage);
        damage.lines().forEach(l -> spec.commandLine().getErr().println(Main.errorLine(l)));
        throw refusal;
    }
}
