package dev.dfx.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code dfx export}: Export a run directory or perf.data file as a Chrome/Perfetto trace or HTML report. */
@Command(name = "export", mixinStandardHelpOptions = true, description = "Export a run directory or perf.data file as a Chrome/Perfetto trace or HTML report.")
final class ExportCommand implements Callable<Integer> {
    // PLACEHOLDER: replaced by the issue that owns this command; never land a release with it.
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dfx export is not built yet");
    }
}
