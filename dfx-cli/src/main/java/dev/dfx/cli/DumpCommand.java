package dev.dfx.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code dfx dump}: Raw records of a run directory or perf.data file (perf report -D style). */
@Command(name = "dump", mixinStandardHelpOptions = true, description = "Raw records of a run directory or perf.data file (perf report -D style).")
final class DumpCommand implements Callable<Integer> {
    // PLACEHOLDER: replaced by the issue that owns this command; never land a release with it.
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dfx dump is not built yet");
    }
}
