package dev.dfx.cli;

import picocli.CommandLine.Option;

/**
 * perf's header options, shared by {@code dfx script}, {@code dfx report} and {@code dfx dump} ({@code perf report
 * --header...}).
 */
final class HeaderOptions {
    @Option(names = "--header", negatable = true, arity = "0",
            description = "Print the perf.data header before the records")
    boolean header;

    @Option(names = "--header-only", negatable = true, arity = "0", description = "Print the perf.data header only")
    boolean headerOnly;

    @Option(names = {"-I", "--show-info"}, negatable = true, arity = "0",
            description = "With --header: print all header details")
    boolean showInfo;

    /** @return whether a header is to be printed */
    boolean any() {
        return header || headerOnly;
    }
}
