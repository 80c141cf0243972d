package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.chunk.ChunkReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx record} onto a real full disk: a 1 MiB tmpfs that the chunk files fill (deps chunks are stored
 * zero-block encoded, about a tenth of their records, so a bigger disk would only fill during the exports). The recording ends early and
 * cleanly (one summary, no stack trace, exit 1), run.json says {@code failed} and why (the space kept for it at the
 * start makes room), the chunk files keep what reached them, and {@code dfx report} says what is missing. Runs only
 * where this process may mount a tmpfs (root on Linux); elsewhere it is skipped.
 */
@Timeout(120)
class DiskFullTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    private Path disk;
    private boolean mounted;

    private static boolean run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @BeforeEach
    void mount() throws IOException {
        disk = Files.createDirectories(tmp.resolve("disk"));
        mounted = run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.toString());
        assumeTrue(mounted, "cannot mount a tmpfs here");
    }

    @AfterEach
    void unmount() {
        if (mounted) {
            run("umount", disk.toString());
        }
    }

    /** With --quiet, the run directory on standard output and one line on standard error: failed, and why. */
    @Test
    void aFullDiskUnderQuietIsOneLineThatSaysTheRecordingFailedAndWhy() throws IOException {
        Path dir = disk.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "gemm", "--quiet", "-o", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).isEqualTo(dir + "\n");
        JsonNode m = JSON.readTree(dir.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("failed");
        assertThat(r.err()).isEqualTo("dfx: recording " + dir + " failed: " + m.get("reason").asText() + "\n");
    }

    @Test
    void aFullDiskEndsTheRecordingCleanlyAndTheManifestSaysWhy() throws IOException {
        Path dir = disk.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "gemm", "-o", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).doesNotContain("\tat ", "Exception");
        assertThat(r.out()).contains("status failed (writing the ").contains("No space left on device");

        JsonNode m = JSON.readTree(dir.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("failed");
        assertThat(m.get("reason").asText()).contains("files failed (No space left on device); recording stopped early");
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).doesNotContain(".dfx-record.lock",
                    ".run.json.reserve").noneMatch(f -> f.endsWith(".tmp"));
        }

        // run.json counts as collected exactly what the chunk files hold; the rest is in the loss columns
        boolean cut = false;
        for (JsonNode sub : m.get("subsystems")) {
            String name = sub.get("name").asText();
            long onDisk;
            boolean complete;
            try (ChunkReader c = ChunkReader.open(dir.resolve("chunks/" + name + ".dfx"), d -> { })) {
                onDisk = c.recordCount();
                complete = c.complete();
            }
            assertThat(sub.get("collected").asLong()).as(name + " collected").isEqualTo(onDisk);
            assertThat(sub.get("collected").asLong() + sub.get("dropped").asLong() + sub.get("silent_loss").asLong())
                    .as(name + " reconciles").isEqualTo(sub.get("total").asLong());
            long byCause = 0;
            for (JsonNode n : sub.get("dropped_by_cause")) {
                byCause += n.asLong();
            }
            assertThat(byCause).as(name + " dropped by cause").isEqualTo(sub.get("dropped").asLong());
            JsonNode out = null;
            for (JsonNode o : m.get("outputs")) {
                if (o.get("path").asText().equals("chunks/" + name + ".dfx")) {
                    out = o;
                }
            }
            assertThat(out).as(name + " chunk file entry").isNotNull();
            assertThat(out.get("written").asBoolean()).as(name + " written means complete").isEqualTo(complete);
            assertThat(out.get("entries").asLong()).isEqualTo(onDisk);
            cut |= !complete;
        }
        assertThat(cut).as("the disk cut a chunk file short").isTrue();

        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(report.out()).contains("status failed");
        List<String> lines = report.err().lines().toList();
        assertThat(lines).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith("dfx: " + dir.resolve("chunks")));
        CliRun script = CliRun.dfx("script", dir.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.out()).as("what was written stays readable").contains("deps:submit:");
    }
}
