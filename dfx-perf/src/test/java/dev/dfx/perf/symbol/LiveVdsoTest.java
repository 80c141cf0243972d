package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

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
 * {@code [vdso]} frames as the real perf prints them: a C program that calls {@code clock_gettime} in a loop
 * ({@code src/test/c/clockloop.c}) recorded with the real perf ({@code cpu-clock -g}) into a build-id cache of the
 * test's own, where {@code perf record} copies the vDSO image ({@code [vdso]/ID/vdso}); {@code perf script} and
 * dfx's compared byte for byte with that cache (symbols such as {@code __vdso_clock_gettime}) and with an empty one
 * ({@code [unknown]}, as perf prints the vDSO it cannot find). Kernel frames are left unresolved on both sides
 * ({@code -k /dev/null}). Skipped, with the reason, where perf is missing or may not record.
 */
class LiveVdsoTest {
    @TempDir
    static Path dir;
    private static Path cache;
    private static Path data;

    @BeforeAll
    static void buildAndRecord() throws IOException {
        LivePerf.assumeRecords(dir);
        // -fno-plt: calls go through the GOT, so no PLT entry overlaps _init (where perf's tree search and dfx's
        // sorted table may pick different symbols, docs/perf-data.md)
        CPrograms.run(dir, List.of(CPrograms.compiler(), "-O2", "-fno-plt", "-o", "clockloop",
            Path.of("src/test/c/clockloop.c").toAbsolutePath().toString()));
        cache = Files.createDirectories(dir.resolve("buildid-cache"));
        Files.createDirectories(dir.resolve("empty-cache"));
        LivePerf rec = LivePerf.run(dir, "--buildid-dir", cache.toString(), "record", "-q", "-e", "cpu-clock", "-F",
            "4000", "-g", "-o", "vdso.data", "--", "./clockloop", "3000000");
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf record").isZero();
        data = dir.resolve("vdso.data");
        try (var ids = Files.list(cache.resolve("[vdso]"))) {
            assertThat(ids.map(id -> id.resolve("vdso")).filter(Files::isRegularFile).count())
                .as("perf record copied the vDSO into the build-id cache").isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "perf script {0} with the {1} cache")
    @CsvSource(delimiter = '|', value = {
        "-F ip,sym,symoff,dso|filled|__vdso_clock_gettime\\+0x[0-9a-f]+ \\(\\[vdso\\]\\)",
        "|filled|__vdso_clock_gettime\\+0x[0-9a-f]+ \\(\\[vdso\\]\\)",
        "-F ip,sym,dso|empty|\\[unknown\\] \\(\\[vdso\\]\\)",
    })
    void scriptEqualsPerf(String fields, String which, String expected) throws IOException {
        Path cacheDir = which.equals("filled") ? cache : dir.resolve("empty-cache");
        List<String> args = new ArrayList<>(List.of("--buildid-dir", cacheDir.toString(), "script", "-k",
            "/dev/null"));
        if (fields != null) {
            args.addAll(List.of(fields.split(" ")));
        }
        args.addAll(List.of("-i", data.getFileName().toString()));
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf script status").isZero();
        SymbolOptions opt = SymbolOptions.defaults().withBuildIdDir(cacheDir).withKallsyms(Path.of("/dev/null"));
        String ours = Goldens.script(data, data.getFileName().toString(), fields == null ? null : fields.substring(3),
            opt);
        Goldens.assertSame(which + " " + fields, perf.out(), ours);
        assertThat(ours).containsPattern(expected);
    }
}
