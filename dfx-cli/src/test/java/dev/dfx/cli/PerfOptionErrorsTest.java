package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad option values of the perf.data commands are refused before anything is printed, in one {@code dfx:} line:
 * a {@code --kallsyms} file that cannot be used (missing, a directory, an ELF file) is bad input, exit 1, as perf
 * refuses a missing one up front ("Invalid file"); a value its option cannot take is a usage error, exit 2, as
 * picocli's own value errors.
 */
class PerfOptionErrorsTest {
    private static final Path DATA = Path.of("..", "testdata", "perf", "cpu-clock-g-F999.data");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} --kallsyms {1}")
    @CsvSource({"script, missing", "script, directory", "script, elf", "report, missing", "report, directory",
        "report, elf", "export, missing", "export, elf"})
    void aKallsymsFileThatCannotBeUsedIsRefusedBeforeAnyOutput(String command, String kind) throws Exception {
        Path k = switch (kind) {
            case "missing" -> dir.resolve("nosuch");
            case "directory" -> Files.createDirectory(dir.resolve("kdir"));
            default -> Files.write(dir.resolve("vmlinux"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        };
        List<String> args = new ArrayList<>(command.equals("export")
            ? List.of("export", DATA.toString(), "-f", "folded", "-o", "-") : List.of(command, "-i", DATA.toString()));
        args.addAll(List.of("--kallsyms", k.toString()));
        CliRun run = CliRun.dfx(args.toArray(String[]::new));
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("dfx: --kallsyms " + k).hasLineCount(1);
    }
}
