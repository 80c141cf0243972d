package dev.dfx.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code dfx list}: List PMUs, their events and format fields. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List PMUs, their events and format fields.")
final class ListCommand implements Callable<Integer> {
    // PLACEHOLDER: replaced by the issue that owns this command; never land a release with it.
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dfx list is not built yet");
    }
}
