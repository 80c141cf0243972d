package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.export.PerfDataInput;
import dev.dfx.testing.Fixtures;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pipe-mode perf.data arriving other than as a file: on a standard input that is a pipe with no input named
 * ({@code perf record -o - | dfx script}, perf's default), and through a FIFO named by {@code -i}. The right output
 * is perf's own: {@code perf script -i sched-proc.pipe.data}, committed with the fixture.
 */
class PipeInputTest {
    private static final Path DATA = Fixtures.perf("sched-proc.pipe.data");
    private static final Path SCRIPT = Fixtures.perf("sched-proc.pipe.script.txt");

    @Test
    void aPipeOnStandardInputIsTheDefaultInput(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("perf.data"), new byte[] {1, 2, 3}); // not read: a pipe on stdin wins, as in perf
        DfxProcess p = DfxProcess.start(dir, "script");
        try (OutputStream in = p.process().getOutputStream()) {
            in.write(Files.readAllBytes(DATA));
        }
        DfxProcess.Done done = p.finish();
        assertThat(done.status()).as(done.output()).isZero();
        assertThat(done.stdout()).isEqualTo(Files.readString(SCRIPT, StandardCharsets.UTF_8));
    }

    @Test
    void reportReadsAPipeNamedDash(@TempDir Path dir) throws Exception {
        DfxProcess p = DfxProcess.start(dir, "report", "-i", "-", "--sort", "comm");
        try (OutputStream in = p.process().getOutputStream()) {
            in.write(Files.readAllBytes(DATA));
        }
        DfxProcess.Done done = p.finish();
        assertThat(done.status()).as(done.output()).isZero();
        CliRun fromFile = CliRun.dfx("report", "-i", DATA.toString(), "--sort", "comm");
        assertThat(done.stdout()).isEqualTo(fromFile.out()).contains("# Samples: ");
    }

    /**
     * A directory given as standard input: the read fails (EISDIR) and the one line names the stream and the reason,
     * not the output; no output file is left.
     */
    @ParameterizedTest(name = "{0} < a directory")
    @ValueSource(strings = {"report -i -", "script -i -", "dump -i -", "export - --format folded -o out.folded",
        "export - --format chrome -o -"})
    void aDirectoryOnStandardInputIsNamedAsTheInput(String command, @TempDir Path dir) throws Exception {
        Path folder = Files.createDirectory(dir.resolve("folder"));
        DfxProcess.Done done = DfxProcess.start(dir, List.of(), Map.of(), folder, command.split(" ")).finish();
        assertThat(done.status()).isEqualTo(1);
        assertThat(done.stderr()).isEqualTo("dfx: pipe: byte offset 0: cannot read the stream: Is a directory;"
            + " expected a pipe-mode perf.data stream\n");
        assertThat(done.stdout()).isEmpty();
        try (var left = Files.list(dir)) {
            assertThat(left).noneMatch(f -> f.getFileName().toString().startsWith("out.")
                || f.getFileName().toString().startsWith(".out."));
        }
    }

    /**
     * Started with standard input closed ({@code <&-}), the JVM's own {@code lib/modules} becomes fd 0: it is not read
     * as the stream; the one line says standard input is closed.
     */
    @ParameterizedTest(name = "{0} <&-")
    @ValueSource(strings = {"report -i -", "script -i -", "dump -i -", "export - --format folded -o out.folded"})
    void aClosedStandardInputIsSaidSo(String command, @TempDir Path dir) throws Exception {
        DfxProcess.Done done = DfxProcess.start(dir, List.of(), Map.of(), DfxProcess.CLOSED_STDIN, command.split(" "))
            .finish();
        assertThat(done.status()).isEqualTo(1);
        assertThat(done.stderr()).isEqualTo("dfx: pipe: standard input is closed; expected a pipe-mode perf.data"
            + " stream\n");
        assertThat(dir.resolve("out.folded")).doesNotExist();
    }

    @ParameterizedTest(name = "export - --format {0}")
    @ValueSource(strings = {"chrome", "folded", "speedscope", "perfetto", "html"})
    void exportReadsAPipeNamedDash(String format, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("from-pipe." + format);
        DfxProcess p = DfxProcess.start(dir, "export", "-", "--format", format, "-o", out.toString());
        try (OutputStream in = p.process().getOutputStream()) {
            in.write(Files.readAllBytes(DATA));
        }
        DfxProcess.Done done = p.finish();
        assertThat(done.status()).as(done.output()).isZero();
        // the same recording as a file named as the stream is named, so that names in the output agree too
        Files.copy(DATA, dir.resolve(PerfDataInput.PIPE));
        Path fromFile = dir.resolve("from-file." + format);
        DfxProcess.Done file = DfxProcess.start(dir, "export", PerfDataInput.PIPE, "--format", format, "-o",
            fromFile.toString()).finish();
        assertThat(file.status()).as(file.output()).isZero();
        byte[] expected = Files.readAllBytes(fromFile);
        assertThat(expected).isNotEmpty();
        assertThat(Files.readAllBytes(out)).isEqualTo(expected);
    }

    @Test
    void exportRefusesAFileFormatStream(@TempDir Path dir) throws Exception {
        DfxProcess p = DfxProcess.start(dir, "export", "-", "-o", dir.resolve("t.json").toString());
        try (OutputStream in = p.process().getOutputStream()) {
            in.write(Files.readAllBytes(Fixtures.perf("irq-a.data")));
        }
        DfxProcess.Done done = p.finish();
        assertThat(done.status()).isEqualTo(1);
        assertThat(done.stderr()).startsWith("dfx: pipe: byte offset 8: ");
        assertThat(dir.resolve("t.json")).doesNotExist();
    }

    @Test
    @Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard, not a timing assertion
    void aFifoIsReadAsAStream(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("perf.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                Files.write(fifo, Files.readAllBytes(DATA));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        CliRun r = CliRun.dfx("script", "-i", fifo.toString());
        writer.get();
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(Files.readString(SCRIPT, StandardCharsets.UTF_8));
    }

    /**
     * A header printed before the records needs a pipe-mode stream read twice (the features, then the records from
     * the start): standard input and a FIFO are refused in one line naming the option given, before anything is
     * printed; --header-only reads the stream once and is taken.
     */
    @ParameterizedTest(name = "{0} -i -")
    @ValueSource(strings = {"report --header|--header", "report -I|-I/--show-info", "report --show-info|-I/--show-info",
        "script --header|--header", "dump --header|--header"})
    void aHeaderBeforeTheRecordsOfAStreamIsRefusedBeforeAnythingIsPrinted(String caseLine, @TempDir Path dir)
            throws Exception {
        String[] c = caseLine.split("\\|");
        String[] words = c[0].split(" ");
        DfxProcess p = DfxProcess.start(dir, words[0], words[1], "-i", "-");
        try (OutputStream in = p.process().getOutputStream()) {
            in.write(Files.readAllBytes(DATA));
        } catch (java.io.IOException gone) {
            // the command may end before it reads what was written
        }
        DfxProcess.Done done = p.finish();
        assertThat(done.status()).as(done.output()).isEqualTo(1);
        assertThat(done.stdout()).isEmpty();
        assertThat(done.stderr()).isEqualTo("dfx: -: " + c[1] + " needs to read a pipe stream twice; use --header-only,"
            + " or save the stream to a file\n");
    }

    @Test
    @Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard, not a timing assertion
    void aHeaderBeforeTheRecordsOfAFifoIsRefusedWithoutOpeningIt(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("perf.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        CliRun r = CliRun.dfx("report", "--header", "-i", fifo.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("dfx: " + fifo + ": --header needs to read a pipe stream twice; use"
            + " --header-only, or save the stream to a file\n");
    }

    @Test
    void headerOnlyReadsAStreamOnce(@TempDir Path dir) throws Exception {
        DfxProcess p = DfxProcess.start(dir, "report", "--header-only", "-i", "-");
        try (OutputStream in = p.process().getOutputStream()) {
            in.write(Files.readAllBytes(DATA));
        }
        DfxProcess.Done done = p.finish();
        assertThat(done.status()).as(done.output()).isZero();
        assertThat(done.stdout()).startsWith("# ========\n").contains("# cmdline : ");
    }

    /**
     * perf's "captured on" is the modification time of what it reads, by fstat: for standard input redirected from a
     * file, the file's. The copy's time is set to a known instant; perf's own line for the same input is the right
     * one, where perf is installed.
     */
    @Test
    void theHeaderOfAFileOnStandardInputShowsTheFilesTime(@TempDir Path dir) throws Exception {
        Path copy = dir.resolve("copy.pipe.data");
        Files.copy(DATA, copy);
        Files.setLastModifiedTime(copy, java.nio.file.attribute.FileTime.from(java.time.Instant.parse(
            "2020-02-29T12:34:56Z")));
        DfxProcess.Done done = DfxProcess.start(dir, java.util.List.of(), java.util.Map.of(), copy, "report",
            "--header-only", "-i", "-").finish();
        assertThat(done.status()).as(done.output()).isZero();
        String ours = done.stdout().lines().filter(l -> l.startsWith("# captured on")).findFirst().orElseThrow();
        assertThat(ours).contains(" 2020").doesNotContain(Integer.toString(java.time.Year.now().getValue()));
        Process perf;
        try {
            perf = new ProcessBuilder("perf", "report", "--header-only", "-i", "-").redirectInput(copy.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (java.io.IOException noPerf) {
            return; // no perf here: the year above is what is checked
        }
        String theirs = new String(perf.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(perf.waitFor()).isZero();
        assertThat(ours).isEqualTo(theirs.lines().filter(l -> l.startsWith("# captured on")).findFirst()
            .orElseThrow());
    }

    @Test
    void aDeviceIsNamedForWhatItIs() {
        CliRun r = CliRun.dfx("script", "-i", "/dev/zero");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("dfx: /dev/zero: not a perf.data file but a character device; give a file, or"
                + " '-' for a pipe-mode stream on standard input\n");
    }
}
