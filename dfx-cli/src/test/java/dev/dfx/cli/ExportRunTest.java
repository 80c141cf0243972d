package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx export RUN -o FILE} on one recorded run: FILE may not be one of the export's inputs (run.json, a chunk
 * file, another output), may be the run's own trace.json, may be {@code -} (standard output); a FILE that cannot be
 * written is one line; a failed export leaves FILE as it was.
 */
@Timeout(120)
class ExportRunTest extends OneRecordedRun {
    @TempDir
    Path tmp;

    private static void assertOneLine(CliRun r, String line) {
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo(line + System.lineSeparator());
    }

    @ParameterizedTest
    @ValueSource(strings = {"run.json", "chunks/swimlane.dfx", "chunks/deps.dfx", "pmu.csv", "deps.json",
            "args/args.json", "args/args.bin", "scopes.jsonl"})
    void anInputOfTheExportIsNeverOverwritten(String file) throws IOException {
        Path target = run.resolve(file);
        byte[] before = Files.readAllBytes(target);
        for (String format : List.of("chrome", "perfetto", "html")) {
            CliRun r = CliRun.dfx("export", run.toString(), "--format", format, "-o", target.toString());
            assertOneLine(r, "dfx: option -o: " + target + " is an input of the export; write the output somewhere"
                    + " else");
            assertThat(Files.readAllBytes(target)).isEqualTo(before);
        }
    }

    @Test
    void anInputReachedThroughALinkOrDotDotIsRefusedToo() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("manifest.json"), run.resolve("run.json"));
        CliRun r = CliRun.dfx("export", run.toString(), "-o", link.toString());
        assertOneLine(r, "dfx: option -o: " + link + " is the same file as " + run.resolve("run.json")
                + ", an input of the export; write the output somewhere else");
        Files.delete(link);
        Path dotted = run.resolve("chunks").resolve("..").resolve("run.json");
        assertThat(CliRun.dfx("export", run.toString(), "-o", dotted.toString()).status()).isEqualTo(1);
        assertThat(Files.readString(run.resolve("run.json"))).startsWith("{");
    }

    @ParameterizedTest
    @ValueSource(strings = {"perfetto", "html"})
    void theRunsOwnTraceIsNeverReplacedByAnotherFormat(String format) throws IOException {
        Path trace = run.resolve("trace.json");
        byte[] before = Files.readAllBytes(trace);
        for (Path target : List.of(trace, run.resolve("chunks").resolve("..").resolve("trace.json"))) {
            CliRun r = CliRun.dfx("export", run.toString(), "--format", format, "-o", target.toString());
            assertThat(r.status()).isEqualTo(1);
            assertThat(r.err()).hasLineCount(1).startsWith("dfx: option -o: " + target + " is ").endsWith("the run's"
                    + " Chrome trace (--format " + format + " would replace it with another format); write the output"
                    + " somewhere else" + System.lineSeparator());
        }
        assertThat(Files.readAllBytes(trace)).isEqualTo(before);
    }

    @Test
    void aLinkIsFollowedNeverReplaced() throws Exception {
        byte[] trace = Files.readAllBytes(run.resolve("trace.json"));
        Path target = Files.writeString(tmp.resolve("target.json"), "original");
        Path link = Files.createSymbolicLink(tmp.resolve("link.json"), target);
        assertThat(CliRun.dfx("export", run.toString(), "-o", link.toString()).status()).isZero();
        assertThat(Files.isSymbolicLink(link)).as("the link stays a link").isTrue();
        assertThat(Files.readAllBytes(target)).isEqualTo(trace);

        // /dev/stdout is a link to a device or pipe: written through, the link and the device stay
        Path devNull = Files.createSymbolicLink(tmp.resolve("stdout"), Path.of("/dev/null"));
        assertThat(CliRun.dfx("export", run.toString(), "-o", devNull.toString()).status()).isZero();
        assertThat(Files.isSymbolicLink(devNull)).isTrue();
        assertThat(Files.isRegularFile(Path.of("/dev/null"))).isFalse();

        Path fifo = tmp.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readAllBytes(fifo);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertThat(CliRun.dfx("export", run.toString(), "-o", fifo.toString()).status()).isZero();
        assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo(trace);
        assertThat(Files.isRegularFile(fifo)).as("the FIFO stays a FIFO").isFalse();

        // a reader that goes away (head -c) ends the export quietly, as on standard output
        CompletableFuture<Void> gone = CompletableFuture.runAsync(() -> {
            try {
                Files.newInputStream(fifo).close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        CliRun closed = CliRun.dfx("export", run.toString(), "-o", fifo.toString());
        gone.get(30, TimeUnit.SECONDS);
        assertThat(closed.err()).isEmpty();
        assertThat(closed.status()).isEqualTo(141);
    }

    @Test
    void anEmptyOutputPathIsAUsageError() {
        CliRun r = CliRun.dfx("export", run.toString(), "-o", "");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: export: option -o: empty path; expected a file to write, or - for standard"
                + " output (see 'dfx export --help')" + System.lineSeparator());
    }

    @Test
    void theRunsOwnTraceMayBeRewrittenAndStandardOutputGetsTheSameBytes() throws IOException {
        byte[] trace = Files.readAllBytes(run.resolve("trace.json"));
        CliRun again = CliRun.dfx("export", run.toString(), "-o", run.resolve("trace.json").toString());
        assertThat(again.status()).as(again.err()).isZero();
        assertThat(Files.readAllBytes(run.resolve("trace.json"))).isEqualTo(trace);

        CliRun stdout = CliRun.dfx("export", run.toString(), "-o", "-");
        assertThat(stdout.status()).as(stdout.err()).isZero();
        assertThat(stdout.out().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(trace);
        assertThat(Path.of("-")).doesNotExist();
    }

    @Test
    void anOutputThatCannotBeWrittenIsOneLine() throws IOException {
        Path orphan = tmp.resolve("nodir").resolve("x.json");
        assertOneLine(CliRun.dfx("export", run.toString(), "-o", orphan.toString()),
                "dfx: option -o: cannot write " + orphan + ": folder " + orphan.getParent() + " does not exist");
        assertOneLine(CliRun.dfx("export", run.toString(), "-o", tmp.toString()),
                "dfx: option -o: " + tmp + " is a directory; expected a file to write");
        if (Files.exists(Path.of("/dev/full"))) {
            assertOneLine(CliRun.dfx("export", run.toString(), "-o", "/dev/full"),
                    "dfx: option -o: cannot write /dev/full: No space left on device");
        }
        if (Files.isDirectory(Path.of("/proc/self"))) {
            CliRun r = CliRun.dfx("export", run.toString(), "-o", "/proc/x.json");
            assertThat(r.status()).isEqualTo(1);
            assertThat(r.err()).startsWith("dfx: option -o: cannot write /proc/x.json: ").doesNotContain("\tat ")
                    .hasLineCount(1);
        }
    }

    @Test
    void aFailedExportLeavesTheOutputAsItWas() throws IOException {
        Path out = Files.writeString(tmp.resolve("keep.json"), "a good trace");
        CliRun r = CliRun.dfx("export", tmp.toString(), "-o", out.toString()); // tmp is no run directory
        assertThat(r.status()).isEqualTo(1);
        assertThat(out).hasContent("a good trace");
        try (var s = Files.list(tmp)) {
            assertThat(s.toList()).containsExactly(out);
        }
    }
}
