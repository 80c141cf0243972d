package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.export.TraceEventChecker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dfx record} as a user runs it, in its own JVM: the README's main command with no options writes
 * {@code ./dfx-runs/<timestamp>/} with a complete, loss-free run and a valid trace; SIGINT or SIGTERM stops a
 * run that still writes its manifest, naming the signal and what was collected, and exits 128 + the signal; a
 * recorder killed with SIGKILL leaves a run that {@code dfx report} says did not finish.
 */
@Timeout(300)
class RecordProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** Starts {@code dfx ARGS} in a child JVM with this test's classpath, working directory {@code tmp}. */
    private Process dfx(Path out, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
    }

    @Test
    void theMainCommandWritesACompleteRunDirectory() throws Exception {
        Path out = tmp.resolve("out.txt");
        Process p = dfx(out, "record");
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        Path run;
        try (Stream<Path> s = Files.list(tmp.resolve("dfx-runs"))) {
            run = s.findFirst().orElseThrow();
        }
        assertThat(run.getFileName().toString()).matches("\\d{8}-\\d{6}");
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("ok");
        assertThat(m.get("config").get("workload").asText()).isEqualTo("attention");
        assertThat(m.get("config").get("subsystems")).hasSize(5);
        for (JsonNode s : m.get("subsystems")) {
            assertThat(s.get("dropped").asLong()).as(s.get("name").asText()).isZero();
            assertThat(s.get("silent_loss").asLong()).isZero();
            assertThat(s.get("collected").asLong()).isPositive();
        }
        for (JsonNode o : m.get("outputs")) {
            assertThat(o.get("written").asBoolean()).as(o.get("path").asText()).isTrue();
            assertThat(run.resolve(o.get("path").asText())).exists();
        }
        try (InputStream in = Files.newInputStream(run.resolve("trace.json"))) {
            assertThat(TraceEventChecker.check(in)).isEmpty();
        }
        assertThat(text).contains("status ok", "trace: " + run.resolve("trace.json"));
    }

    /** Starts a run of many seconds (one-record buffers make every record wait for the host), once run.json exists. */
    private Process longRun(Path out, Path run) throws Exception {
        Process p = dfx(out, "record", "-w", "flood", "-o", run.toString(), "--pool", "swimlane=1x1");
        Path manifest = run.resolve("run.json");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(manifest) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(manifest).as(Files.exists(out) ? Files.readString(out) : "").exists();
        Thread.sleep(500); // let it collect something
        assertThat(p.isAlive()).isTrue();
        return p;
    }

    private static void signal(Process p, String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalStopsTheRunAndTheManifestNamesIt(String sig, int status) throws Exception {
        Path out = tmp.resolve("out.txt");
        Path run = tmp.resolve("run");
        Process p = longRun(out, run);
        signal(p, sig);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isEqualTo(status);
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("interrupted");
        assertThat(m.get("reason").asText()).isEqualTo("stopped by SIG" + sig);
        assertThat(m.get("end").isNull()).isFalse();
        assertThat(m.get("workload").get("check").asText()).isEqualTo("skipped");
        long collected = 0;
        for (JsonNode s : m.get("subsystems")) {
            assertThat(s.get("silent_loss").asLong()).isZero();
            assertThat(s.get("dropped").asLong()).isZero();
            collected += s.get("collected").asLong();
        }
        assertThat(collected).isPositive();
        JsonNode swimlane = m.get("subsystems").get(0);
        assertThat(swimlane.get("collected").asLong()).as("stopped early").isLessThan(4L * 65_536);
        assertThat(text).contains("status interrupted (stopped by SIG" + sig + ")");
        assertThat(run.resolve(".dfx-record.lock")).doesNotExist();
        try (InputStream in = Files.newInputStream(run.resolve("trace.json"))) {
            assertThat(TraceEventChecker.check(in)).isEmpty();
        }
    }

    @Test
    void aKilledRecorderLeavesARunThatReportSaysDidNotFinish() throws Exception {
        Path out = tmp.resolve("out.txt");
        Path run = tmp.resolve("run");
        Process p = longRun(out, run);
        long pid = p.pid();
        p.destroyForcibly(); // SIGKILL: no handler, no hook
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(JSON.readTree(run.resolve("run.json").toFile()).get("status").asText()).isEqualTo("running");

        List<String> held = new ArrayList<>();
        long chunks = 0;
        long records = 0;
        try (Stream<Path> files = Files.list(run.resolve("chunks"))) {
            for (Path f : files.sorted().toList()) {
                try (ChunkReader r = ChunkReader.open(f)) { // strict: a torn last chunk is no error
                    held.add(r.subsystem() + " " + r.chunks().size() + " chunks " + r.recordCount() + " records");
                    chunks += r.chunks().size();
                    records += r.recordCount();
                }
            }
        }
        CliRun report = CliRun.dfx("report", run.toString());
        assertThat(report.status()).isEqualTo(1);
        List<String> lines = report.out().lines().toList();
        assertThat(lines.getFirst()).startsWith("dfx run " + run + ": flood, status running");
        assertThat(lines.getLast().trim().split(" +")).as("what the chunk files hold, in all")
                .containsExactly("all", Long.toString(chunks), Long.toString(records));
        assertThat(report.err().lines().toList()).last().isEqualTo("dfx: " + run + ": the recording did not finish"
                + " (run.json still says running; its recorder, pid " + pid + ", is gone); recoverable from the chunk"
                + " files: " + String.join(", ", held) + " (dfx script and dfx dump list them)");
        assertThat(CliRun.dfx("record", "-w", "decoder", "-o", run.toString()).err())
                .isEqualTo("dfx: option -o: " + run + " holds the run of a dfx record that is gone (pid " + pid
                        + ") and did not finish it; give a new or empty directory" + System.lineSeparator());
    }
}
