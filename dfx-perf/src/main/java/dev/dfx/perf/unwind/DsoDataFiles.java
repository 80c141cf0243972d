package dev.dfx.perf.unwind;

import dev.dfx.perf.symbol.SymbolOptions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Finds the file whose bytes stand for a DSO's memory, in perf 6.1's order for DSO data ({@code dso__data_get_fd}
 * over {@code binary_type_data}: {@code DSO_BINARY_TYPE__BUILD_ID_CACHE}, then {@code SYSTEM_PATH_DSO}): the
 * build-id cache's file when the recording names the DSO's build id ({@link SymbolOptions#buildIdFile}: {@code elf},
 * {@code vdso} for the vDSO; with {@code --symfs DIR} the cache is {@code DIR/.debug}), then the recorded path below
 * {@code --symfs}. The first regular file that opens is taken whatever it holds, as perf takes the first file
 * descriptor: a truncated or non-ELF file there gives its bytes and no unwind table, and hides the files after it.
 * perf checks no build id here, so neither does this. Each DSO is looked up once. Not thread-safe.
 */
final class DsoDataFiles {
    private final SymbolOptions options;
    private final Function<String, String> buildIds;
    private final Map<String, DsoData> byName = new HashMap<>();
    private final Map<String, Boolean> known = new HashMap<>();

    /**
     * @param options  {@code --symfs} and the build-id cache folder
     * @param buildIds a DSO's build id as the recording names it, or {@code null}
     */
    DsoDataFiles(SymbolOptions options, Function<String, String> buildIds) {
        this.options = options;
        this.buildIds = buildIds;
    }

    /** @return the DSO's data, or {@code null} when no file of it can be opened */
    DsoData get(String dso) {
        if (known.containsKey(dso)) {
            return byName.get(dso);
        }
        DsoData d = open(dso);
        known.put(dso, Boolean.TRUE);
        byName.put(dso, d);
        return d;
    }

    private DsoData open(String dso) {
        DsoData d = DsoData.read(options.buildIdFile(buildIds.apply(dso), dso.equals("[vdso]") ? "vdso" : "elf"));
        if (d != null || !dso.startsWith("/")) {
            return d;
        }
        try {
            return DsoData.read(options.symfs() == null ? Path.of(dso) : Path.of(options.symfs().toString() + dso));
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
