package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LaneWriter#claim(int)}: a chain of consecutive slots is reserved in one buffer (the current one when it
 * fits, else a fresh one after the current is published), counted as n attempts, and dropped as a whole.
 */
class ClaimChainTest {
    private static final int RPB = 5;

    /** Per delivered buffer: seq and the record numbers it holds, in order. */
    private final List<long[]> seen = new ArrayList<>();

    private Pipeline pipeline(BackpressurePolicy policy, int buffersPerLane) {
        PipelineConfig.Builder b = PipelineConfig.builder("chain").policy(policy).backstop(Duration.ofSeconds(30));
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, RPB, buffersPerLane));
        b.lane(kind, 0);
        return ManualHost.unstarted(b.build(), buf -> {
            long[] r = new long[buf.recordCount() + 1];
            r[0] = buf.seq();
            for (int i = 0; i < buf.recordCount(); i++) {
                r[i + 1] = buf.records().get(Mem.LONG, (long) i * buf.recordSize());
            }
            seen.add(r);
        });
    }

    /** Claims a chain of {@code n} and numbers its records {@code first, first+1, ...}. */
    private static long chain(LaneWriter w, int n, long first) {
        long off = w.claim(n);
        if (off >= 0) {
            for (int i = 0; i < n; i++) {
                SequenceChecker.writeRecord(w.segment(), off + (long) i * SequenceChecker.RECORD, 0, first + i);
            }
        }
        return off;
    }

    @Test
    void aChainThatFitsFollowsTheRecordsBeforeIt() {
        try (Pipeline p = pipeline(BackpressurePolicy.BLOCK, 4)) {
            LaneWriter w = p.writer(0);
            assertThat(chain(w, 1, 0)).isZero();
            assertThat(chain(w, 3, 1)).as("slots 1..3 of the same buffer").isEqualTo(SequenceChecker.RECORD);
            assertThat(chain(w, 1, 4)).isEqualTo(4L * SequenceChecker.RECORD);
            w.flush();
            ManualHost.round(p);
            PipelineStats s = p.stop();
            assertThat(seen).hasSize(1);
            assertThat(seen.get(0)).containsExactly(0, 0, 1, 2, 3, 4);
            assertThat(s.lanes().get(0).total()).isEqualTo(5);
            assertThat(s.reconciled()).isTrue();
        }
    }

    @Test
    void aChainThatDoesNotFitIsPublishedFirstAndStartsAFreshBuffer() {
        try (Pipeline p = pipeline(BackpressurePolicy.BLOCK, 4)) {
            LaneWriter w = p.writer(0);
            chain(w, 2, 0);                              // 2 of 5 slots used
            long off = chain(w, 4, 2);                   // 4 > 3 free: publish the 2, chain at slot 0 of the next
            assertThat(off).isZero();
            assertThat(ManualHost.readyTail(p, 0)).as("the partly filled buffer was published").isEqualTo(1);
            assertThat(ManualHost.readyEntryInt(p, 0, 0, RegionLayout.E_COUNT)).isEqualTo(2);
            chain(w, RPB, 6);                            // a whole-buffer chain: publishes the 4
            w.flush();
            ManualHost.round(p);
            PipelineStats s = p.stop();
            assertThat(seen).hasSize(3);
            assertThat(seen.get(0)).containsExactly(0, 0, 1);
            assertThat(seen.get(1)).containsExactly(1, 2, 3, 4, 5);
            assertThat(seen.get(2)).containsExactly(2, 6, 7, 8, 9, 10);
            assertThat(s.lanes().get(0).total()).isEqualTo(11);
            assertThat(s.lanes().get(0).collected()).isEqualTo(11);
            assertThat(s.reconciled()).isTrue();
        }
    }

    @Test
    void aChainLongerThanABufferIsRefusedAndNotCounted() {
        try (Pipeline p = pipeline(BackpressurePolicy.BLOCK, 4)) {
            LaneWriter w = p.writer(0);
            assertThatThrownBy(() -> w.claim(RPB + 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("claim of 6 consecutive records, expected 1..5");
            assertThatThrownBy(() -> w.claim(0)).isInstanceOf(IllegalArgumentException.class);
            assertThat(p.stop().lanes().get(0).total()).isZero();
        }
    }

    @Test
    void aChainWithNoBufferIsDroppedWholeAndReconciles() {
        // DROP, one buffer per lane, nobody drains: once the buffer is published the lane has none.
        try (Pipeline p = pipeline(BackpressurePolicy.DROP, 1)) {
            LaneWriter w = p.writer(0);
            chain(w, 3, 0);
            assertThat(chain(w, 3, 3)).as("publishes the 3, finds no replacement").isEqualTo(-1);
            assertThat(chain(w, 2, 6)).isEqualTo(-1);
            LaneStats live = p.stats().lanes().get(0);
            assertThat(live.total()).isEqualTo(8);
            assertThat(live.droppedPopGate()).isEqualTo(5);
            ManualHost.round(p);
            PipelineStats s = p.stop();
            assertThat(seen).hasSize(1);
            assertThat(seen.get(0)).containsExactly(0, 0, 1, 2);
            assertThat(s.lanes().get(0).collected() + s.lanes().get(0).dropped()).isEqualTo(8);
            assertThat(s.reconciled()).isTrue();
        }
    }
}
