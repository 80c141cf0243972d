package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * C++ symbols as the real perf prints them: a C++ program ({@code src/test/c/cxxwork.cpp}) built here with g++,
 * recorded with the real perf ({@code cpu-clock -g}; once more with its binaries copied into a build-id cache
 * of the test's own), and {@code perf script} compared byte for byte with dfx's, demangled and with {@code --no-demangle}; and
 * with {@code --symfs} of an empty folder, where perf 6.1 uses neither the paths nor the build-id cache. The C++
 * compiler comes from {@code scripts/cc.sh c++} (which installs g++ from Debian where there is none). Skipped, with
 * the reason, where perf is missing or may not record, or no C++ compiler can be had.
 */
class LiveDemangleTest {
    @TempDir
    static Path dir;
    private static Path cache;
    private static Path emptyCache;
    private static Path data;
    private static Path cached;

    @BeforeAll
    static void buildAndRecord() throws IOException {
        LivePerf.assumeRecords(dir);
        Path src = Path.of("src/test/c/cxxwork.cpp").toAbsolutePath();
        String cxx;
        try {
            cxx = CPrograms.cxxCompiler();
        } catch (IOException e) {
            assumeTrue(false, "no C++ compiler can be had here (scripts/cc.sh c++): " + e.getMessage());
            return;
        }
        CPrograms.run(dir, List.of(cxx, "-O1", "-fno-omit-frame-pointer", "-o", "cxxwork", src.toString()));
        cache = Files.createDirectories(dir.resolve("buildid-cache"));
        emptyCache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        Files.createDirectories(dir.resolve("empty-symfs"));
        data = record("cxx.data", "-N", emptyCache);
        // with its binaries (and the vDSO) in the cache: only the --symfs case reads it, where perf 6.1 does not
        cached = record("cxx-cached.data", "-q", cache);
    }

    private static Path record(String name, String cacheOption, Path cacheDir) {
        LivePerf rec = LivePerf.run(dir, "--buildid-dir", cacheDir.toString(), "record", "-q", cacheOption, "-e",
            "cpu-clock", "-F", "4000", "-g", "-o", name, "--", "./cxxwork", "200");
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf record").isZero();
        return dir.resolve(name);
    }

    @ParameterizedTest(name = "perf script {0} {1}")
    @CsvSource(delimiter = '|', value = {
        "|--demangle|ns::Iter::advance_and_next\\+0x",
        "-F ip,sym,symoff,dso|--demangle|ns::Box<double>::get\\+0x",
        "-F ip,sym,dso|--demangle|std::",
        "-F ip,sym,symoff,dso|--no-demangle|_ZN2ns4Iter16advance_and_nextEv\\+0x",
        "-F ip,sym,dso|--symfs|\\[unknown\\] \\(/.*cxxwork\\)",
    })
    void scriptEqualsPerf(String fields, String mode, String expected) throws IOException {
        Path input = mode.equals("--symfs") ? cached : data;
        // the recording made without filling a cache is read with the empty cache it was made with
        Path cacheDir = input == cached ? cache : emptyCache;
        List<String> args = new ArrayList<>(List.of("--buildid-dir", cacheDir.toString(), "script", "-k",
            "/dev/null"));
        SymbolOptions opt = SymbolOptions.defaults().withBuildIdDir(cacheDir).withKallsyms(Path.of("/dev/null"));
        switch (mode) {
            case "--no-demangle" -> {
                args.add(mode);
                opt = opt.withDemangle(false);
            }
            case "--symfs" -> {
                args.addAll(List.of("--symfs", dir.resolve("empty-symfs").toString()));
                opt = opt.withSymfs(dir.resolve("empty-symfs"));
            }
            default -> {
            }
        }
        if (fields != null) {
            args.addAll(List.of(fields.split(" ")));
        }
        args.addAll(List.of("-i", input.getFileName().toString()));
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf script status").isZero();
        String ours = Goldens.script(input, input.getFileName().toString(), fields == null ? null : fields.substring(3),
            opt);
        Goldens.assertSame(mode + " " + fields, perf.out(), ours);
        assertThat(ours).containsPattern(expected);
    }
}
