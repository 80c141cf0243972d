package dev.dfx.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code dfx report}: Counts, reconcile, stalls and watermarks of a run directory. */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Counts, reconcile, stalls and watermarks of a run directory.")
final class ReportCommand implements Callable<Integer> {
    // PLACEHOLDER: replaced by the issue that owns this command; never land a release with it.
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dfx report is not built yet");
    }
}
