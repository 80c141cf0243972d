package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.io.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run directories are private, as perf.data is: the directory and every folder in it mode 0700, every file 0600,
 * whatever the umask and whatever mode the folder around it has; a trace rewritten by {@code dfx export} keeps its
 * mode, and an export outside a run directory gets the default mode as any tool's output.
 */
class PrivateRunDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void everyFolderAndFileOfARecordingIsItsOwnersAlone() throws IOException {
        Path open = openFolder("open");
        Path run = open.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "--args-level", "2", "-o", run.toString(), "--quiet");
        assertThat(r.status()).as(r.err()).isZero();

        Map<String, String> modes = modes(run);
        assertThat(modes).containsKeys("run.json", "trace.json", "chunks", "chunks/swimlane.dfx", "args",
                "args/args.bin", "args/args.json", "pmu.csv", "deps.json", "scopes.jsonl");
        modes.forEach((name, mode) -> assertThat(mode).as(name)
                .isEqualTo(Files.isDirectory(run.resolve(name)) ? "0700" : "0600"));
        assertThat(OwnerOnly.mode(run)).isEqualTo("0700");
    }

    @Test
    void anEmptyDirectoryGivenWithOIsMadePrivateBeforeItsFirstFile() throws IOException {
        Path run = openFolder("given");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-s", "swimlane", "-o", run.toString(), "--quiet");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(OwnerOnly.mode(run)).isEqualTo("0700");
        assertThat(OwnerOnly.mode(run.resolve("run.json"))).isEqualTo("0600");
    }

    @Test
    void anExportKeepsTheModeOfTheTraceItReplacesAndOutsideARunGetsTheDefault() throws IOException {
        Path run = tmp.resolve("run");
        assertThat(CliRun.dfx("record", "-w", "decoder", "-s", "swimlane", "-o", run.toString(), "--quiet")
                .status()).isZero();
        CliRun again = CliRun.dfx("export", run.toString(), "--format", "chrome", "-o",
                run.resolve("trace.json").toString());
        assertThat(again.status()).as(again.err()).isZero();
        assertThat(OwnerOnly.mode(run.resolve("trace.json"))).isEqualTo("0600");

        Path open = openFolder("exports");
        Path probe = Files.createFile(open.resolve("probe")); // the mode a new file gets here (umask applied)
        Path out = open.resolve("trace.json");
        assertThat(CliRun.dfx("export", run.toString(), "--format", "chrome", "-o", out.toString()).status())
                .isZero();
        assertThat(OwnerOnly.mode(out)).isEqualTo(OwnerOnly.mode(probe));
    }

    /** @return a new folder with mode 0755, so that a private mode below it is dfx's doing, not the test's */
    private Path openFolder(String name) throws IOException {
        Path f = Files.createDirectory(tmp.resolve(name));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        return f;
    }

    /** @return every path under {@code dir} (relative, '/'-separated) to its mode */
    static Map<String, String> modes(Path dir) throws IOException {
        Map<String, String> modes = new LinkedHashMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.skip(1).toList()) {
                modes.put(dir.relativize(p).toString().replace('\\', '/'), OwnerOnly.mode(p));
            }
        }
        return modes;
    }
}
