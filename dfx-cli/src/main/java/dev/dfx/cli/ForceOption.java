package dev.dfx.cli;

import picocli.CommandLine.Option;

/**
 * perf's {@code -f/--force} (don't complain, do it: perf skips its check of the file's owner), shared by
 * {@code dfx script}, {@code dfx report} and {@code dfx dump}: accepted, with its {@code --no-} form, so that perf
 * command lines run unchanged; it changes nothing, as dfx makes no owner check.
 */
final class ForceOption {
    @Option(names = {"-f", "--force"}, negatable = true, arity = "0",
            description = "Accepted for perf compatibility (no effect)")
    boolean force;
}
