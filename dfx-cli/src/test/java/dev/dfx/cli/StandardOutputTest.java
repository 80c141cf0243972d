package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every command's standard output fails the same way: a write error is {@code dfx: standard output: REASON} and exit
 * 1; a closed pipe ends the command quietly with 141 (128 + SIGPIPE), as {@code perf script | head} does. In-process
 * with a stream that fails after a given number of bytes, and once in a child JVM on the real {@code /dev/full} and a
 * pipe closed by its reader.
 */
@Timeout(120)
class StandardOutputTest extends OneRecordedRun {
    /** A stream that takes {@code room} bytes and then fails with {@code reason}, as write(2) would. */
    private static final class FailingStream extends OutputStream {
        private final String reason;
        private long room;

        FailingStream(String reason, long room) {
            this.reason = reason;
            this.room = room;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > room) {
                throw new IOException(reason);
            }
            room -= len;
        }
    }

    private static CliRun failing(String reason, long room, String... args) {
        StringWriter err = new StringWriter();
        StdoutWriter out = new StdoutWriter(new StandardStream(new FailingStream(reason, room), StandardStream.OUT));
        int status = Main.execute(args, out, new PrintWriter(err));
        return new CliRun(status, "", err.toString());
    }

    private static String[] command(String cmd) {
        return cmd.replace("RUN", run.toString()).split(" ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"report RUN", "report --json RUN", "list", "script RUN", "dump RUN",
        "export RUN -o -", "export RUN -f perfetto -o -", "export RUN -f html -o -", "--help", "record --help"})
    void aFullDiskIsOneLineNamingStandardOutput(String cmd) {
        for (long room : new long[] {0, 100}) {
            CliRun r = failing("No space left on device", room, command(cmd));
            assertThat(r.status()).as(cmd + " " + r.err()).isEqualTo(1);
            assertThat(r.err()).as(cmd).isEqualTo("dfx: standard output: No space left on device"
                    + System.lineSeparator());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"report RUN", "list", "script RUN", "dump RUN", "export RUN -o -"})
    void aClosedPipeEndsQuietlyWith141(String cmd) {
        CliRun r = failing("Broken pipe", 100, command(cmd));
        assertThat(r.err()).as(cmd).isEmpty();
        assertThat(r.status()).as(cmd).isEqualTo(141);
    }

    @Test
    void recordSaysSoWhenItsSummaryCannotBeWritten() {
        Path dir = shared.resolve("full-summary");
        CliRun r = failing("No space left on device", 0, "record", "-w", "decoder", "-s", "swimlane", "-o",
                dir.toString());
        assertThat(r.err()).isEqualTo("dfx: standard output: No space left on device" + System.lineSeparator());
        assertThat(r.status()).isEqualTo(1);
        assertThat(dir.resolve("run.json")).as("the run itself is kept").exists();
    }

    /** Starts {@code dfx ARGS} in a child JVM with this test's classpath. */
    private static ProcessBuilder child(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd);
    }

    @Test
    void theRealStandardOutputOnAFullDeviceAndAClosedPipe() throws Exception {
        File full = new File("/dev/full");
        assumeTrue(full.exists(), "no /dev/full here");
        Path err = shared.resolve("err.txt");
        Process p = child("report", "--json", run.toString()).redirectOutput(full).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(err, StandardCharsets.UTF_8))
                .isEqualTo("dfx: standard output: No space left on device\n");
        assertThat(p.exitValue()).isEqualTo(1);

        // about 300 KB of listing into a 64 KiB pipe whose reader is gone before the first byte
        Process q = child("script", run.toString()).redirectError(err.toFile()).start();
        q.getInputStream().close();
        assertThat(q.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(err, StandardCharsets.UTF_8)).isEmpty();
        assertThat(q.exitValue()).isEqualTo(141);
    }
}
