package dev.dfx.cli;

import dev.dfx.perf.symbol.SymbolOptions;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the perf.data commands that resolve sample addresses look for symbols, with perf's options and defaults
 * ({@link SymbolOptions#defaults()}: the running kernel's symbols when the recording is of it, DSOs at their
 * recorded paths, perf's build-id cache).
 */
final class SymbolSourceOptions {
    @Option(names = {"-k", "--kallsyms"}, paramLabel = "FILE",
        description = "Kernel symbols (/proc/kallsyms format); by default the running kernel's when the recording is"
            + " of it, else perf's build-id cache")
    Path kallsyms;

    @Option(names = "--symfs", paramLabel = "DIR",
        description = "Look for the recorded DSOs (and their debug files) below DIR; the build-id cache is then"
            + " DIR/.debug, as in perf")
    Path symfs;

    @Option(names = "--buildid-dir", paramLabel = "DIR", description = "perf's build-id cache (default: ~/.debug)")
    Path buildIdDir;

    @Option(names = "--demangle", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "Demangle user-space C++ symbol names as perf does (default: on; --no-demangle prints them"
            + " as the ELF file has them)")
    boolean demangle = true;

    @Option(names = "--inline", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "Show the functions inlined at --call-graph dwarf frames, from the DSOs' DWARF debug information,"
            + " as perf does (default: on; --no-inline leaves them out)")
    boolean inline = true;

    /**
     * @return the options as given
     * @throws dev.dfx.error.BadInputException when the {@code --kallsyms} file cannot be used (checked here, before
     *                                          the command prints anything, as perf checks it)
     * @throws dev.dfx.error.UsageException    when {@code --kallsyms} is given an empty path (perf: "Invalid file: ")
     */
    SymbolOptions options() {
        EmptyPath.refuse("--kallsyms", kallsyms, "a kallsyms text file");
        SymbolOptions o = SymbolOptions.defaults().withKallsyms(kallsyms).withSymfs(symfs).withDemangle(demangle)
            .withInline(inline);
        return (buildIdDir != null ? o.withBuildIdDir(buildIdDir) : o).checked();
    }
}
