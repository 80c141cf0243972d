package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.Subsystem;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.recording.Recording;
import dev.dfx.runtime.recording.RecordingConfig;
import dev.dfx.runtime.recording.RecordingPlan;
import dev.dfx.runtime.workload.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's trace whose schedulers' and orchestrator's bars are drawn on threads of their own (deferred parts, while
 * the arrows are planned and the cores' bars drawn) is the same bytes as the trace drawn in order on one thread, and
 * {@code dfx record}'s trace.json, whose deps replay the recording hands over, is those bytes too.
 */
@Timeout(120)
class RunTracePartsTest {
    @TempDir
    Path tmp;

    @Test
    void theTraceDrawnInPartsIsTheTraceDrawnInOrder() throws IOException {
        Path dir = tmp.resolve("run");
        RecordingConfig c = RecordingConfig.defaults().withWorkload("decoder")
                .withSubsystems(EnumSet.allOf(Subsystem.class)).withOutput(dir);
        RunManifest m = new Recording(RecordingPlan.of(c, tmp, Workloads.create("decoder"))).run(List.of(
                (run, man, deps) -> RunTraceExporter.write(run, man, run.resolve(RunTraceExporter.FILE), deps)));
        assertThat(m.status()).isEqualTo("ok");

        ByteArrayOutputStream parts = new ByteArrayOutputStream();
        ByteArrayOutputStream inOrder = new ByteArrayOutputStream();
        RunDamage damage = new RunDamage();
        try (RunChunkFiles chunks = RunChunkFiles.open(dir, m, damage)) {
            RunTraceExporter.write(chunks, m, parts, TraceFormat.CHROME, damage);
            try (inOrder) {
                RunTraceExporter.write(chunks, m, SequentialSink.of(new ChromeTraceWriter(inOrder,
                        m.clock().originNs())), damage);
            }
        }
        assertThat(damage.none()).isTrue();
        String trace = parts.toString(StandardCharsets.UTF_8);
        // the part holds the phase, dispatch and submit bars; the cores' bars carry the arrows
        assertThat(trace).contains("\"cat\":\"phase\"", "\"cat\":\"dispatch\"", "\"cat\":\"submit\"",
                "\"ph\":\"s\"", "\"ph\":\"f\"").doesNotContain("\"dependency_arrows\":\"none");
        assertThat(parts.toByteArray()).isEqualTo(inOrder.toByteArray());
        assertThat(Files.readAllBytes(dir.resolve(RunTraceExporter.FILE))).isEqualTo(inOrder.toByteArray());

        // the recording's trace leaves the deps file to the deps export: opened without it, a cut deps file is
        // neither read nor damage, while every other file still is
        Path deps = dir.resolve("chunks/deps.dfx");
        try (FileChannel f = FileChannel.open(deps, StandardOpenOption.WRITE)) {
            f.truncate(f.size() / 2);
        }
        RunDamage all = new RunDamage();
        try (RunChunkFiles chunks = RunChunkFiles.open(dir, m, all)) {
            assertThat(chunks.reader(Subsystem.DEPS)).isNotNull();
        }
        assertThat(all.lines()).singleElement().asString().startsWith(deps + ": ");
        RunDamage butDeps = new RunDamage();
        try (RunChunkFiles chunks = RunChunkFiles.open(dir, m, butDeps, Set.of(Subsystem.DEPS.id()))) {
            assertThat(chunks.reader(Subsystem.DEPS)).isNull();
            assertThat(chunks.reader(Subsystem.SWIMLANE)).isNotNull();
        }
        assertThat(butDeps.none()).isTrue();
    }
}
