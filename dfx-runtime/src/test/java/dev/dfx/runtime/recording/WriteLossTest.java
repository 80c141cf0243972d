package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.ChunkInfo;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.DropWindow;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.ThreadRole;
import dev.dfx.runtime.subsystem.LanePlan;
import dev.dfx.runtime.subsystem.PipelineSettings;
import dev.dfx.runtime.subsystem.PoolSizes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Records lost to a failed chunk write ({@link WriteLoss}) move from collected to dropped ({@code write-failed}) and
 * are placed in time where the data is missing: each lost chunk of timed records is a drop window from its first to
 * its last record, joined with the lane's drop windows where they overlap; a chunk without times stays unplaced.
 */
class WriteLossTest {
    @Test
    void lostChunksMoveToDroppedWithTheirTimeSpans() {
        LanePlan plan = new LanePlan(Subsystem.PMU, new PipelineSettings(PoolSizes.defaults(), BackpressurePolicy.DROP,
                Duration.ofSeconds(1), Duration.ofNanos(100_000)));
        int lane = plan.lane(PmuRecord.KIND, ThreadRole.CORE, 0);
        int kind = PmuRecord.KIND.id();
        RunManifest.Stalls none = new RunManifest.Stalls(0, 0, 0, List.of(), 0);
        RunManifest.Lane before = new RunManifest.Lane(lane, "core", "core", 0, 100, 95, Map.of("pop_gate", 5L), 0, 0,
                none, 0, 0L, 0L, new RunManifest.Drops(1, List.of(new DropWindow(100, 200, 5))), null);
        RunManifest.SubsystemReport r = new RunManifest.SubsystemReport("pmu", 100, 95, 5, Map.of("pop_gate", 5L), 0,
                true, 0, none, 0, List.of(before), List.of(), List.of(), List.of(), 0, Map.of());

        List<ChunkInfo> lost = List.of(
                new ChunkInfo(64, kind, 0, 3, 10, 64, 150, 300, 0),    // overlaps the pop-gate window
                new ChunkInfo(128, kind, 0, 7, 4, 64, 1000, 1100, 0),
                new ChunkInfo(192, kind, 0, 8, 3, 64, 0, 0, 0));       // no times: stays unplaced
        RunManifest.SubsystemReport after = WriteLoss.apply(r, plan, lost, new WriteLoss.Refused());

        RunManifest.Lane l = after.lanes().getFirst();
        assertThat(l.collected()).isEqualTo(95 - 17);
        assertThat(l.droppedByCause()).containsEntry(WriteLoss.CAUSE, 17L).containsEntry("pop_gate", 5L);
        assertThat(l.dropWindows()).containsExactly(new DropWindow(100, 300, 15), new DropWindow(1000, 1100, 4));
        assertThat(l.drops().runs()).isEqualTo(3);
        assertThat(l.droppedUnplaced()).isEqualTo(3);
        assertThat(after.dropped()).isEqualTo(22);
    }

    /**
     * Records of buffers whose collector call threw because the file could not be written are already dropped (as
     * collector losses): they move to write-failed, at most what the lane counted lost to its collector; collected and
     * the totals stay.
     */
    @Test
    void refusedBuffersMoveFromTheCollectorCauseToWriteFailed() {
        LanePlan plan = new LanePlan(Subsystem.PMU, new PipelineSettings(PoolSizes.defaults(), BackpressurePolicy.DROP,
                Duration.ofSeconds(1), Duration.ofNanos(100_000)));
        int lane = plan.lane(PmuRecord.KIND, ThreadRole.CORE, 0);
        RunManifest.Stalls none = new RunManifest.Stalls(0, 0, 0, List.of(), 0);
        RunManifest.Lane before = new RunManifest.Lane(lane, "core", "core", 0, 100, 60,
                Map.of("pop_gate", 5L, "collector", 35L), 0, 0, none, 0, 0L, 0L, null, null);
        RunManifest.SubsystemReport r = new RunManifest.SubsystemReport("pmu", 100, 60, 40,
                Map.of("pop_gate", 5L, "collector", 35L), 0, true, 0, none, 0, List.of(before), List.of(), List.of(),
                List.of(), 0, Map.of());
        WriteLoss.Refused refused = new WriteLoss.Refused();
        refused.add(lane, 16);
        refused.add(lane, 16);
        refused.add(lane + 1, 7); // a lane the report does not have: nothing of it is moved

        RunManifest.SubsystemReport after = WriteLoss.apply(r, plan, List.of(), refused);

        RunManifest.Lane l = after.lanes().getFirst();
        assertThat(l.collected()).isEqualTo(60);
        assertThat(l.droppedByCause()).containsEntry(WriteLoss.CAUSE, 32L).containsEntry("collector", 3L)
                .containsEntry("pop_gate", 5L);
        assertThat(after.collected()).isEqualTo(60);
        assertThat(after.dropped()).isEqualTo(40);
        assertThat(after.droppedByCause()).containsEntry(WriteLoss.CAUSE, 32L).containsEntry("collector", 3L);

        refused.add(lane, 16); // 48 refused, but the lane counted only 35 lost to its collector
        RunManifest.SubsystemReport capped = WriteLoss.apply(r, plan, List.of(), refused);
        assertThat(capped.lanes().getFirst().droppedByCause()).containsEntry(WriteLoss.CAUSE, 35L)
                .containsEntry("collector", 0L);
    }
}
