package dev.dfx.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code dfx record}: Record a run of the embedded runtime (or a workload) into a run directory. */
@Command(name = "record", mixinStandardHelpOptions = true, description = "Record a run of the embedded runtime (or a workload) into a run directory.")
final class RecordCommand implements Callable<Integer> {
    // PLACEHOLDER: replaced by the issue that owns this command; never land a release with it.
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dfx record is not built yet");
    }
}
