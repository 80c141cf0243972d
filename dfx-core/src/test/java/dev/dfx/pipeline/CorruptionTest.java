package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The host rejects corrupt producer-side state with a clear error instead of crashing or misreading: ready-queue
 * indices outside the ring, and entries that name the wrong lane, fail the producer's lanes with the reason; the
 * records involved show up as silent loss.
 */
class CorruptionTest {

    private static Pipeline pipeline() {
        PipelineConfig.Builder b = PipelineConfig.builder("corrupt").policy(BackpressurePolicy.DROP);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 4, 4));
        b.lane(kind, 0);
        b.lane(kind, 1);
        return ManualHost.unstarted(b.build(), buf -> { });
    }

    @Test
    void tailOutsideTheRingQuarantinesTheQueue() {
        try (Pipeline p = pipeline()) {
            int size = p.parts().layout.readyQueueSize();
            ManualHost.device(p).set(Mem.INT, p.parts().layout.readyQueue(0) + RegionLayout.RQ_TAIL, size);
            ManualHost.round(p);
            ManualHost.round(p);
            PipelineStats s = p.stats();
            String reason = "ready queue 0: tail " + size + " is outside 0.." + (size - 1)
                    + " (corrupt); queue no longer drained";
            assertThat(s.errors()).containsExactly("lane 0 failed: " + reason);
            assertThat(s.errorCount()).isEqualTo(1);
            assertThat(s.lanes().get(0).failure()).isEqualTo(reason);
            assertThat(s.lanes().get(1).failed()).isFalse();
        }
    }

    /** The tail is an unsigned 32-bit field: all ones reads as 2^32 - 1, the value the producer wrote, not -1. */
    @Test
    void aTailWithTheTopBitSetIsNamedUnsigned() {
        try (Pipeline p = pipeline()) {
            ManualHost.device(p).set(Mem.INT, p.parts().layout.readyQueue(0) + RegionLayout.RQ_TAIL, -1);
            ManualHost.round(p);
            int size = p.parts().layout.readyQueueSize();
            assertThat(p.stats().lanes().get(0).failure()).isEqualTo("ready queue 0: tail 4294967295 is outside 0.."
                    + (size - 1) + " (corrupt); queue no longer drained");
        }
    }

    /** A free-queue head past its tail is no depth at all: said so, not as a negative distance. */
    @Test
    void aFreeQueueHeadPastItsTailIsSaidSo() {
        try (Pipeline p = pipeline()) {
            LaneWriter w = p.writer(0);
            for (int i = 0; i < 5; i++) {
                w.claim(); // the 5th claim publishes buffer 0: the host refills the lane's free queue after taking it
            }
            long tail = ManualHost.freeTail(p, 0);
            ManualHost.device(p).set(Mem.LONG, p.parts().layout.lane(0) + RegionLayout.L_FQ_HEAD, tail + 2);
            ManualHost.round(p);
            assertThat(p.stats().lanes().get(0).failure()).isEqualTo("free queue head " + (tail + 2)
                    + " is past its tail " + tail + " (corrupt); lane no longer refilled");
        }
    }

    @Test
    void entryNamingAForeignLaneFailsTheLaneAndShowsAsSilentLoss() {
        try (Pipeline p = pipeline()) {
            LaneWriter w = p.writer(0);
            for (int i = 0; i < 5; i++) {
                w.claim();  // the 5th claim publishes buffer 0 with 4 records
            }
            long entry = p.parts().layout.readyEntry(0, 0);
            ManualHost.device(p).set(Mem.INT, entry + RegionLayout.E_LANE, 1);  // producer 0 cannot write lane 1
            w.flush();
            PipelineStats s = p.stop();
            String reason = "ready queue 0 entry 0: lane 1 is not a lane of producer 0 (corrupt); queue no longer drained";
            assertThat(s.errors()).containsExactly("lane 0 failed: " + reason);
            LaneStats l = s.lanes().get(0);
            assertThat(l.failure()).isEqualTo(reason);
            assertThat(l.total()).isEqualTo(5);
            assertThat(l.collected()).as("the queue is no longer read, the flushed buffer included").isZero();
            assertThat(l.silentLoss()).isEqualTo(5);
            assertThat(s.reconciled()).isFalse();
        }
    }
}
