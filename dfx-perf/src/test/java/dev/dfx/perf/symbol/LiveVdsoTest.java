package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.testing.CPrograms;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code [vdso]} frames as the real perf prints them: a C program that calls {@code clock_gettime} in a loop
 * ({@code src/test/c/clockloop.c}) recorded with the real perf ({@code cpu-clock -g}) into a build-id cache of the
 * test's own, where {@code perf record} copies the vDSO image ({@code [vdso]/ID/vdso}); {@code perf script} and
 * dfx's compared byte for byte with that cache (symbols such as {@code __vdso_clock_gettime}) and with an empty one
 * ({@code [unknown]}, as perf prints the vDSO it cannot find), and a pipe-mode recording of the same program, whose
 * vDSO has no build id, so that perf and dfx each read their own process's (the running kernel's). Kernel frames are left unresolved on both sides
 * ({@code -k /dev/null}). Skipped, with the reason, where perf is missing or may not record.
 */
class LiveVdsoTest {
    @TempDir
    static Path dir;
    private static Path cache;
    private static Path data;
    private static Path pipeData;

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
        pipeData = dir.resolve("vdso.pipe.data");
        Process p = new ProcessBuilder("perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-g", "-o", "-", "--",
            "./clockloop", "3000000").directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(pipeData.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("perf record -o - ended").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        assertThat(p.exitValue()).as("perf record -o -").isZero();
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
        "-F ip,sym,symoff,dso|pipe|__vdso_clock_gettime\\+0x[0-9a-f]+ \\(\\[vdso\\]\\)",
    })
    void scriptEqualsPerf(String fields, String which, String expected) throws IOException {
        Path cacheDir = which.equals("filled") ? cache : dir.resolve("empty-cache");
        // pipe mode gives no build ids: both read their own process's vDSO (perf copies it to a temporary file)
        Path data = which.equals("pipe") ? pipeData : LiveVdsoTest.data;
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
