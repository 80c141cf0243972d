package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * COPY mode writes back only host-owned fields, one at a time: a bulk write-back is refused (and would indeed
 * roll back producer-owned fields), and a concurrent COPY run never sees a producer-owned counter go backwards.
 */
class CopyModeTest {

    private static PipelineConfig config(int producers) {
        return config(producers, 2, BackpressurePolicy.BLOCK);
    }

    private static PipelineConfig config(int producers, int buffersPerLane, BackpressurePolicy policy) {
        PipelineConfig.Builder b = PipelineConfig.builder("copy").memoryMode(MemoryMode.COPY).policy(policy);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 32, buffersPerLane));
        for (int q = 0; q < producers; q++) {
            b.lane(kind, q);
        }
        return b.build();
    }

    @Test
    void bulkWriteBackIsRefusedAndFieldWriteBacksAreAllowed() {
        try (Pipeline p = ManualHost.unstarted(config(1), buf -> { })) {
            PipelineParts parts = p.parts();
            assertThat(parts.transport).isInstanceOf(CopyTransport.class);
            RegionLayout layout = parts.layout;
            assertThatThrownBy(() -> parts.transport.writeBack(0, layout.regionBytes()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("refused")
                    .hasMessageContaining("header");
            long lane = layout.lane(0);
            assertThatThrownBy(() -> parts.transport.writeBack(lane + RegionLayout.L_FQ_TAIL, 2 * RegionLayout.PAD))
                    .as("tail and slots are host-owned, the padding between them is not")
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> parts.transport.setLong(lane + RegionLayout.L_TOTAL, 0))
                    .hasMessageContaining("lane 0 active head (producer-owned)");
            assertThatThrownBy(() -> parts.transport.setIntRelease(layout.readyQueue(0) + RegionLayout.RQ_TAIL, 0))
                    .hasMessageContaining("ready queue 0 tail (producer-owned)");
            assertThatThrownBy(() -> parts.transport.setLong(lane + RegionLayout.L_FQ_HEAD, 0))
                    .hasMessageContaining("free-queue head (producer-owned)");

            long before = ((CopyTransport) parts.transport).fieldWriteBacks();
            parts.transport.writeBack(lane + RegionLayout.L_FQ_TAIL, 8);
            parts.transport.writeBack(layout.freeSlot(0, 0), 8L * layout.slotCount());
            parts.transport.writeBack(layout.readyQueue(0) + RegionLayout.RQ_HEAD, 4);
            assertThat(((CopyTransport) parts.transport).fieldWriteBacks()).isEqualTo(before + 3);
        }
    }

    @Test
    void sharedModeRefusesTheSameBulkWriteBack() {
        PipelineConfig.Builder b = PipelineConfig.builder("shared");
        b.lane(b.pool(new PoolSpec("t", 8, 8, 1)), 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), buf -> { })) {
            assertThatThrownBy(() -> p.parts().transport.writeBack(0, p.parts().layout.regionBytes()))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aBulkWriteBackWouldRollBackProducerFields() {
        // Why the refusal matters: copy the shadow back in bulk after the producer moved on, and its counters
        // go backwards. (Raw copy here, bypassing the transport on purpose.)
        try (Pipeline p = ManualHost.unstarted(config(1, 4, BackpressurePolicy.DROP), buf -> { })) {
            PipelineParts parts = p.parts();
            LaneWriter w = p.writer(0);
            for (int i = 0; i < 40; i++) {
                w.claim();
            }
            parts.transport.pull(0, parts.layout.regionBytes());  // host pulls the whole region at some moment
            for (int i = 0; i < 40; i++) {
                w.claim();
            }
            long total = ManualHost.laneField(p, 0, RegionLayout.L_TOTAL);
            long fqHead = ManualHost.freeHead(p, 0);
            assertThat(total).isEqualTo(80);
            MemorySegment.copy(parts.transport.view(), 0, parts.region.device(), 0, parts.layout.regionBytes());
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_TOTAL)).isEqualTo(40);
            assertThat(ManualHost.freeHead(p, 0)).isLessThan(fqHead);
        }
    }

    @Test
    void concurrentCopyRunNeverRollsBackAProducerOwnedField() throws Exception {
        SequenceChecker checker = new SequenceChecker(3, 10_000);
        try (Pipeline p = Pipeline.start(config(3), checker)) {
            PipelineParts parts = p.parts();
            MemorySegment device = parts.region.device();
            long[] fields = {RegionLayout.L_TOTAL, RegionLayout.L_PUBLISHED, RegionLayout.L_SEQ,
                RegionLayout.L_FQ_HEAD};
            AtomicBoolean done = new AtomicBoolean();
            List<String> rollbacks = new ArrayList<>();
            long[] observations = {0};
            Thread monitor = new Thread(() -> {
                long[][] last = new long[3][fields.length];
                while (!done.get()) {
                    for (int l = 0; l < 3; l++) {
                        for (int f = 0; f < fields.length; f++) {
                            long v = Mem.getLongAcquire(device, parts.layout.lane(l) + fields[f]);
                            if (v < last[l][f]) {
                                rollbacks.add("lane " + l + " field +" + fields[f] + ": " + last[l][f] + " -> " + v);
                            }
                            last[l][f] = v;
                            observations[0]++;
                        }
                    }
                }
            });
            monitor.start();
            TestProducers.run(p, 50_000, 3);
            done.set(true);
            monitor.join();
            PipelineStats s = p.stop();
            assertThat(rollbacks).isEmpty();
            assertThat(observations[0]).isPositive();
            assertThat(checker.problems()).isEmpty();
            assertThat(s.dropped()).isZero();
            assertThat(s.reconciled()).isTrue();
            assertThat(((CopyTransport) parts.transport).fieldWriteBacks()).isPositive();
        }
    }

}
