package dev.dfx.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The input of perf-compatible commands: {@code -i FILE} as perf takes it, or a positional FILE. */
final class PerfInputOption {
    @Option(names = {"-i", "--input"}, paramLabel = "FILE",
        description = "Input file (perf.data file or dfx run directory; '-' reads a pipe-mode stream from stdin)")
    String input;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "Input file, as with -i")
    String positional;

    /** @return the input named on the command line, {@code perf.data} by default as in perf */
    String resolve() {
        if (input != null) {
            return input;
        }
        return positional != null ? positional : "perf.data";
    }
}
