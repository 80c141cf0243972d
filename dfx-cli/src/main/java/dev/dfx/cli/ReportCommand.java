package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.runtime.recording.ManifestFile;
import dev.dfx.runtime.recording.RunChunkFiles;
import dev.dfx.runtime.recording.RunDamage;
import dev.dfx.runtime.recording.RunManifest;
import dev.dfx.runtime.subsystem.OutputFile;
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
 * not finish.
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
            if (o.written() && !Files.exists(run.resolve(o.path()))) {
                damage.add(run.resolve(o.path()) + ": missing; run.json lists it as written");
            }
        }
        if (json) {
            RunSummary.json(run, m, spec.commandLine().getOut());
        } else {
            RunSummary.text(run, m, spec.commandLine().getOut());
        }
        int status = DamageLines.print(damage, spec.commandLine().getErr());
        return status != 0 ? status : RunSummary.exitStatus(m);
    }

    /**
     * A run.json that says {@code running}: refused in one line, naming what the chunk files still hold
     * ({@link UnfinishedRun}); there is no summary to print.
     *
     * @throws BadInputException always
     */
    private void unfinished(RunManifest m, RunDamage damage) {
        UnfinishedRun.refuseLive(run);
        String line;
        try (RunChunkFiles chunks = RunChunkFiles.open(run, m, damage)) {
            line = UnfinishedRun.line(run, chunks.readers());
        }
        damage.lines().forEach(l -> spec.commandLine().getErr().println(Main.errorLine(l)));
        throw new BadInputException(line);
    }
}
