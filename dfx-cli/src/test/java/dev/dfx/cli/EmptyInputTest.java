package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An empty directory, and a zero-sized perf.data file, given to every command that reads recordings: each says the
 * same one line naming the input (perf 6.1's {@code zero-sized data (FILE), nothing to do!} for the file), writes
 * nothing to standard output and exits 1, whatever options that command would have checked for the input's kind.
 */
class EmptyInputTest {
    @TempDir
    Path dir;

    @Test
    void anEmptyDirectoryGetsOneLineFromEveryCommand() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        String line = "dfx: " + empty + ": an empty directory; expected a run directory written by dfx record, or a"
            + " perf.data file\n";
        for (List<String> args : commands(empty)) {
            CliRun run = CliRun.dfx(args.toArray(String[]::new));
            assertThat(run.status()).as(args.toString()).isEqualTo(1);
            assertThat(run.out()).as(args.toString()).isEmpty();
            assertThat(run.err().replace(System.lineSeparator(), "\n")).as(args.toString()).isEqualTo(line);
        }
    }

    @Test
    void aZeroSizedFileGetsOneLineFromEveryCommand() throws IOException {
        Path file = Files.createFile(dir.resolve("empty.data"));
        String line = "dfx: " + file + ": zero-sized file, nothing to do\n";
        for (List<String> args : commands(file)) {
            CliRun run = CliRun.dfx(args.toArray(String[]::new));
            assertThat(run.status()).as(args.toString()).isEqualTo(1);
            assertThat(run.out()).as(args.toString()).isEmpty();
            assertThat(run.err().replace(System.lineSeparator(), "\n")).as(args.toString()).isEqualTo(line);
        }
    }

    /** @return every command line that reads {@code input}, with options that only one kind of input takes */
    private static List<List<String>> commands(Path input) {
        String in = input.toString();
        return List.of(List.of("script", in), List.of("script", "-i", in), List.of("dump", in),
            List.of("dump", "-i", in), List.of("dump", "--header", "-i", in), List.of("dump", "--header-only", in),
            List.of("report", in), List.of("report", "-i", in), List.of("report", "--sort", "comm", in),
            List.of("export", in, "-o", "-"), List.of("export", in, "-f", "folded", "-o", "-"));
    }
}
