package dev.dfx.perf.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.symbol.elf.ElfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which file {@code --call-graph dwarf} unwinding reads under {@code --symfs DIR}, against the real perf: dwarfwork.c
 * and its shared library recorded into a build-id cache of the test's own (which then holds the program, the
 * library, libc and the dynamic loader), then {@code perf script --buildid-dir CACHE --symfs DIR} and
 * {@code dfx script} with the same options compared byte for byte, default fields and {@code -F ip,sym,symoff,dso},
 * with {@code DIR} holding copies of the program and the library, the program cut short, nothing, and copies in
 * {@code DIR/.debug} (perf's build-id cache under {@code --symfs}), which come before the paths. The filled cache
 * outside {@code DIR} must not be read. Skipped, with the reason, where perf is missing or may not record.
 */
class LiveSymfsUnwindTest {
    /** How much of the program a cut copy keeps: its ELF and program headers, none of its unwind tables. */
    private static final int CUT = 8000;

    @TempDir
    static Path dir;
    private static Path cache;

    @BeforeAll
    static void buildAndRecord() throws IOException {
        LivePerf.assumeRecords(dir);
        DwarfWork.build(dir);
        cache = Files.createDirectories(dir.resolve("cache"));
        LivePerf rec = LivePerf.run(dir, "--buildid-dir", cache.toString(), "record", "-q", "-o", "dwarfwork.data",
            "-e", "cpu-clock", "-F", "4000", "--call-graph", "dwarf", "--", "./dwarfwork", "300");
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf record").isZero();
        assertThat(cache.resolve(".build-id")).as("perf record filled the build-id cache").isDirectory();
    }

    /**
     * @param layout what {@code DIR} holds: {@code copies} (the program and the library at their paths),
     *               {@code cut} (the library, and the program's first {@value #CUT} bytes), {@code none},
     *               {@code cache} (the program at its path cut short, both whole in {@code DIR/.debug}: the library
     *               as a {@code .build-id/xx/rest} file, the program in a {@code rest/elf} folder)
     */
    @ParameterizedTest(name = "--symfs with {0}, fields {1}")
    @CsvSource(delimiter = '|', value = {
        "copies|", "copies|-F ip,sym,symoff,dso",
        "cut|", "cut|-F ip,sym,symoff,dso",
        "none|", "none|-F ip,sym,symoff,dso",
        "cache|", "cache|-F ip,sym,symoff,dso",
    })
    void unwindingReadsTheFilesPerfReads(String layout, String fields) throws IOException {
        Path symfs = symfs(layout);
        Path data = dir.resolve("dwarfwork.data");
        String ours = Goldens.script(data, data.getFileName().toString(), fields == null ? null : fields.substring(3),
            SymbolOptions.defaults().withBuildIdDir(cache).withSymfs(symfs));
        String perf = perfScript(data, fields, List.of("--symfs", symfs.toString()));
        Goldens.assertSame(layout + " " + fields, perf, ours);
        assertThat(ours).as("the files below --symfs decide the frames, not the filled cache")
            .isNotEqualTo(perfScript(data, fields, List.of()));
    }

    private static Path symfs(String layout) throws IOException {
        Path symfs = dir.resolve("symfs-" + layout);
        if (Files.isDirectory(symfs)) {
            return symfs; // made for the other fields
        }
        Files.createDirectories(symfs);
        Path program = dir.resolve("dwarfwork");
        Path library = dir.resolve("libdwarflib.so");
        switch (layout) {
            case "copies" -> {
                copy(program, below(symfs, program));
                copy(library, below(symfs, library));
            }
            case "cut" -> {
                copy(library, below(symfs, library));
                cut(program, below(symfs, program));
            }
            case "cache" -> {
                cut(program, below(symfs, program));
                copy(library, buildIdLink(symfs, library));
                copy(program, buildIdLink(symfs, program).resolve("elf"));
            }
            case "none" -> {
            }
            default -> throw new IllegalArgumentException(layout);
        }
        return symfs;
    }

    /** @return {@code DIR/.debug/.build-id/xx/rest} for the file's GNU build id */
    private static Path buildIdLink(Path symfs, Path file) throws IOException {
        String id = ElfFile.parse(file.toString(), Files.readAllBytes(file)).buildId();
        assertThat(id).as("build id of " + file).isNotNull();
        return symfs.resolve(".debug/.build-id").resolve(id.substring(0, 2)).resolve(id.substring(2));
    }

    private static Path below(Path symfs, Path file) {
        return Path.of(symfs.toString() + file);
    }

    private static void cut(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.write(to, Arrays.copyOf(Files.readAllBytes(from), CUT));
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(from, to);
    }

    private static String perfScript(Path data, String fields, List<String> more) {
        return LivePerf.script(data, cache, fields, more);
    }
}
