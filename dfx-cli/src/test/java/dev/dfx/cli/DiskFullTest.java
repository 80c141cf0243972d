package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.testing.CPrograms;
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
 * start makes room), the chunk files keep what reached them, and {@code dfx report} says what is missing. A program
 * recorded onto the full disk ({@code src/test/c/record_threads.c}) runs to its end, and every record it wrote is
 * either in the chunk file or counted {@code write-failed}. Runs only where this process may mount a tmpfs (root on
 * Linux); elsewhere it is skipped.
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
            assertThat(sub.at("/dropped_by_cause/collector").asLong()).as(name + ": a full disk is no collector fault")
                    .isZero();
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

    /**
     * A program that writes 4 x (2 x 50000 + 2) + 1 = 400009 records of 32 bytes (12.8 MB) onto a 2 MiB disk (room
     * for the region of 8 lanes x 2 buffers x 512 records, the space kept for run.json and one 1 MiB write of
     * chunks, not for the next): the recording fails (exit 1 although the program exited 0), one {@code dfx:} line
     * names the chunk file and the disk's reason the moment it happens, and the counts reconcile with what the program
     * wrote and with what the chunk file holds, read back by {@link ChunkReader} and by {@code dfx script}: the rest
     * is {@code write-failed}.
     */
    @Test
    void aProgramRecordedOntoAFullDiskFailsAndCountsEveryLostRecordAsWriteFailed(@TempDir Path bin)
            throws Exception {
        Path program = CPrograms.testProgram("record_threads", bin);
        int threads = 4;
        int steps = 50_000;
        long wrote = threads * (2L * steps + 2) + 1; // step pairs inside one thread slice each, and main's counter
        assertThat(run("mount", "-o", "remount,size=2m", disk.toString())).isTrue();
        Path dir = disk.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "--pool", "user=2x512", "--lanes", "8", "-o",
                dir.toString(), "--", program.toString(), "threads",
                Integer.toString(threads), Integer.toString(steps), "0");
        assertThat(d.status()).as(d.output()).isEqualTo(1);
        assertThat(d.stdout()).isEqualTo("recorded\n");
        assertThat(d.stderr()).doesNotContain("\tat ", "Exception", "java.");
        Path chunkFile = dir.resolve("chunks/user.dfx");
        assertThat(d.stderr().lines().filter(l -> l.startsWith("dfx: ")).toList()).as(d.stderr())
                .containsExactly("dfx: " + chunkFile + ": No space left on device; the command runs on, its records"
                        + " are dropped");

        JsonNode m = JSON.readTree(dir.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("failed");
        // the cause comes first; what else the full disk refused (the windows of the final run.json, which the
        // region file still takes room from) may follow it
        assertThat(m.get("reason").asText()).startsWith("writing chunks/user.dfx failed (No space left on device);"
                + " the records after it were dropped");
        assertThat(d.stderr()).contains("status failed (" + m.get("reason").asText() + ")");
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).doesNotContain(".dfx-record.lock",
                    ".run.json.reserve", "region.dfxr").noneMatch(f -> f.endsWith(".tmp"));
        }
        long onDisk;
        try (ChunkReader c = ChunkReader.open(chunkFile, x -> { })) {
            assertThat(c.complete()).isFalse();
            onDisk = c.recordCount();
        }
        JsonNode user = m.at("/subsystems/0");
        assertThat(user.get("total").asLong()).isEqualTo(wrote);
        assertThat(user.get("collected").asLong()).as("collected is what the chunk file holds").isEqualTo(onDisk);
        assertThat(onDisk).isPositive().isLessThan(wrote);
        assertThat(user.get("silent_loss").asLong()).isZero();
        assertThat(user.get("collected").asLong() + user.get("dropped").asLong()).isEqualTo(wrote);
        JsonNode causes = user.get("dropped_by_cause");
        assertThat(causes.get("write-failed").asLong()).as(causes.toString()).isEqualTo(wrote - onDisk);
        assertThat(causes.get("collector").asLong()).isZero();
        long lanesCollected = 0;
        long lanesWriteFailed = 0;
        for (JsonNode lane : user.get("lanes")) {
            lanesCollected += lane.get("collected").asLong();
            lanesWriteFailed += lane.at("/dropped_by_cause/write-failed").asLong();
        }
        assertThat(lanesCollected).isEqualTo(onDisk);
        assertThat(lanesWriteFailed).isEqualTo(wrote - onDisk);
        JsonNode proc = m.at("/program/processes/0");
        assertThat(proc.get("collected").asLong()).isEqualTo(onDisk);
        assertThat(proc.get("dropped").asLong()).isEqualTo(wrote - onDisk);
        JsonNode out = m.at("/outputs/0");
        assertThat(out.get("path").asText()).isEqualTo("chunks/user.dfx");
        assertThat(out.get("written").asBoolean()).isFalse();
        assertThat(out.get("entries").asLong()).isEqualTo(onDisk);

        CliRun script = CliRun.dfx("script", dir.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.out().lines().filter(l -> l.contains(": user:")).count()).as("records dfx script reads")
                .isEqualTo(onDisk);
        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(report.err()).doesNotContain("run.json counts as collected");
    }

    /**
     * With --quiet the full disk is said once: the line given the moment the chunk file failed, then one line that
     * the recording failed, which refers to it instead of repeating it and adds only what else run.json's reason
     * names.
     */
    @Test
    void aProgramRecordedQuietlyOntoAFullDiskSaysTheFailureOnce(@TempDir Path bin) throws Exception {
        Path program = CPrograms.testProgram("record_threads", bin);
        assertThat(run("mount", "-o", "remount,size=2m", disk.toString())).isTrue();
        Path dir = disk.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "--quiet", "--pool", "user=2x512", "--lanes", "8", "-o",
                dir.toString(), "--", program.toString(), "threads", "4", "50000", "0");
        assertThat(d.status()).as(d.output()).isEqualTo(1);
        assertThat(d.stdout()).isEqualTo("recorded\n");
        String reason = JSON.readTree(dir.resolve("run.json").toFile()).get("reason").asText();
        String cause = "writing chunks/user.dfx failed (No space left on device); the records after it were dropped";
        assertThat(reason).startsWith(cause);
        String more = reason.substring(cause.length());
        assertThat(d.stderr().lines().toList()).as(d.stderr()).containsExactly(
                "dfx: " + dir.resolve("chunks/user.dfx") + ": No space left on device; the command runs on, its"
                        + " records are dropped",
                "dfx: recording " + dir + " failed as the line above says" + more);
    }
}
