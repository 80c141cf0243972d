package dev.dfx.perf.unwind;

import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.symbol.elf.ElfException;
import dev.dfx.perf.symbol.elf.ElfFile;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Finds the file whose bytes stand for a DSO's memory, in perf 6.1's order for DSO data
 * ({@code dso__data_get_fd}: {@code DSO_BINARY_TYPE__BUILD_ID_CACHE}, then {@code SYSTEM_PATH_DSO}): the build-id
 * cache's copy when the recording names the DSO's build id ({@code DIR/.build-id/xx/rest}, a file, or the folder it
 * links to with {@code elf}, {@code vdso} for the vDSO), then the recorded path below {@code --symfs}. perf checks
 * no build id here, so neither does this. Each DSO is looked up once. Not thread-safe.
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

    /** @return the DSO's data, or {@code null} when no file of it can be read */
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
        String id = buildIds.apply(dso);
        if (id != null && id.length() > 2 && options.buildIdDir() != null) {
            DsoData d = read(cached(dso, id));
            if (d != null) {
                return d;
            }
        }
        if (!dso.startsWith("/")) {
            return null;
        }
        try {
            return read(options.symfs() == null ? Path.of(dso) : Path.of(options.symfs().toString() + dso));
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private Path cached(String dso, String id) {
        Path link = options.buildIdDir().resolve(".build-id").resolve(id.substring(0, 2)).resolve(id.substring(2));
        if (Files.isRegularFile(link)) {
            return link;
        }
        return link.resolve(dso.equals("[vdso]") ? "vdso" : "elf");
    }

    private static DsoData read(Path p) {
        if (!ElfFile.looksLikeElf(p)) {
            return null;
        }
        try {
            return DsoData.of(ElfFile.open(p));
        } catch (ElfException e) {
            return null;
        }
    }
}
