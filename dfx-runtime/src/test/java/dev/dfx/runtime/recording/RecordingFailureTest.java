package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.Collector;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunLock;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.workload.Flood;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file of the run directory that cannot be written (the disk is full) ends the recording cleanly: the runtime is
 * stopped early, every pipeline stops and reconciles, what reached the chunk files stays readable, and run.json says
 * {@code failed} and why. The full disk is a collector that fails as the chunk writer does from its N-th buffer on.
 */
@Timeout(120)
class RecordingFailureTest {
    private static final int TASKS = 20_000;

    @TempDir
    Path tmp;

    /** Deps buffers from the third on fail; counts the records of those that went through. */
    private static UnaryOperator<Collector> diskFullAtThirdDepsBuffer(AtomicLong written) {
        AtomicInteger calls = new AtomicInteger();
        return c -> b -> {
            if (b.recordSize() == SubmitRecord.SIZE && calls.incrementAndGet() >= 3) {
                throw new IOException("No space left on device");
            }
            c.accept(b);
            if (b.recordSize() == SubmitRecord.SIZE) {
                written.addAndGet(b.recordCount());
            }
        };
    }

    @Test
    void aWriteFailureStopsTheRunAndTheManifestSaysWhy() throws IOException {
        Path dir = tmp.resolve("full");
        RecordingConfig c = RecordingConfig.defaults().withWorkload("flood").withOutput(dir)
                .withBackpressure(BackpressurePolicy.BLOCK, List.of("deps=4x16"));
        AtomicLong depsWritten = new AtomicLong();
        Recording rec = new Recording(RecordingPlan.of(c, tmp, new Flood(TASKS, 16)),
                diskFullAtThirdDepsBuffer(depsWritten));
        RunManifest m = rec.run(List.of());

        assertThat(m.status()).isEqualTo("failed");
        assertThat(m.reason()).startsWith("writing the deps files failed (No space left on device); recording stopped"
                + " early");
        assertThat(rec.manifestProblem()).isEmpty();
        RunManifest onDisk = ManifestFile.read(dir);
        assertThat(onDisk.status()).isEqualTo("failed");
        assertThat(onDisk.reason()).isEqualTo(m.reason());
        assertThat(onDisk.subsystems()).extracting(RunManifest.SubsystemReport::collected)
                .isEqualTo(m.subsystems().stream().map(RunManifest.SubsystemReport::collected).toList());
        assertThat(m.workload().check()).isEqualTo("skipped");
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            assertThat(s.silentLoss()).as(s.name()).isZero();
            assertThat(s.collected() + s.dropped()).as(s.name()).isEqualTo(s.total());
        }
        RunManifest.SubsystemReport deps = m.subsystem("deps");
        assertThat(deps.collected()).isEqualTo(depsWritten.get()).isEqualTo(32);
        // the buffers the full disk refused are lost to the write, not to a fault of the collector
        assertThat(deps.droppedByCause().get(WriteLoss.CAUSE)).isPositive();
        assertThat(deps.droppedByCause().get("collector")).isZero();
        try (ChunkReader r = ChunkRecords.open(dir, Subsystem.DEPS)) {
            assertThat(r.recordCount()).as("what was written stays readable").isEqualTo(32);
        }
        try (ChunkReader r = ChunkRecords.open(dir, Subsystem.SWIMLANE)) {
            long coreTasks = ChunkRecords.forEach(r, CoreTaskRecord.KIND, (lane, seg, off) -> { });
            assertThat(coreTasks).as("the runtime stopped early").isLessThan(TASKS);
        }
        assertThat(m.outputs()).anyMatch(o -> o.path().equals("deps.json") && !o.written());
        assertThat(dir.resolve(RunLock.FILE)).doesNotExist();
        assertThat(dir.resolve(ManifestReserve.FILE)).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(f -> f.endsWith(".tmp"));
        }
    }
}
