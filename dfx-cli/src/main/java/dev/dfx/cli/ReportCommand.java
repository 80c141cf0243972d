package dev.dfx.cli;

import dev.dfx.runtime.recording.ManifestFile;
import dev.dfx.runtime.recording.RunManifest;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dfx report RUN}: the summary of a run directory, read back from its run.json (text, or {@code --json}). */
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
        if (json) {
            RunSummary.json(run, m, spec.commandLine().getOut());
        } else {
            RunSummary.text(run, m, spec.commandLine().getOut());
        }
        return 0;
    }
}
