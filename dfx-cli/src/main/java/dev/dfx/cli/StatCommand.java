package dev.dfx.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code dfx stat}: Count PMU events while a command runs (perf stat compatible). */
@Command(name = "stat", mixinStandardHelpOptions = true, description = "Count PMU events while a command runs (perf stat compatible).")
final class StatCommand implements Callable<Integer> {
    // PLACEHOLDER: replaced by the issue that owns this command; never land a release with it.
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dfx stat is not built yet");
    }
}
