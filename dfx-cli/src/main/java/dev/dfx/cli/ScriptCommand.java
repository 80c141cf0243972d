package dev.dfx.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code dfx script}: Time-ordered listing of a run directory or a perf.data file (perf script compatible). */
@Command(name = "script", mixinStandardHelpOptions = true, description = "Time-ordered listing of a run directory or a perf.data file (perf script compatible).")
final class ScriptCommand implements Callable<Integer> {
    // PLACEHOLDER: replaced by the issue that owns this command; never land a release with it.
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dfx script is not built yet");
    }
}
