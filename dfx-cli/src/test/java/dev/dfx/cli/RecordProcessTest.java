package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * {@code dfx record} as a user runs it, in its own JVM: the README's main command with no options writes
 * {@code ./dfx-runs/<timestamp>/} with a complete, loss-free run and a valid trace; and Ctrl-C (SIGINT) stops a
 * run that still writes its manifest, saying it was interrupted and what was collected.
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

    @Test
    void ctrlCStopsTheRunAndTheManifestSaysSo() throws Exception {
        Path out = tmp.resolve("out.txt");
        Path run = tmp.resolve("run");
        // one-record buffers make every record wait for the host: a run of many seconds
        Process p = dfx(out, "record", "-w", "flood", "-o", run.toString(), "--pool", "swimlane=1x1");
        Path manifest = run.resolve("run.json");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(manifest) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(manifest).as(Files.exists(out) ? Files.readString(out) : "").exists();
        Thread.sleep(500); // let it collect something
        assertThat(p.isAlive()).isTrue();
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isEqualTo(130);
        JsonNode m = JSON.readTree(manifest.toFile());
        assertThat(m.get("status").asText()).isEqualTo("interrupted");
        assertThat(m.get("reason").asText()).isEqualTo("interrupted (SIGINT)");
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
        assertThat(text).contains("status interrupted (interrupted (SIGINT))");
        try (InputStream in = Files.newInputStream(run.resolve("trace.json"))) {
            assertThat(TraceEventChecker.check(in)).isEmpty();
        }
    }
}
