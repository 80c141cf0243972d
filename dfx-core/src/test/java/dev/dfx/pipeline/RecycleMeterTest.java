package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The host-side flow in {@link PoolStats}: buffers handed to the host, each one's recycle latency W (ready queue to
 * recycled lane) and the collector time, checked on a pipeline whose host the test plays step by step, against
 * bounds the test takes itself: a collector that sleeps 2 ms per buffer, and the test's own clock around the host
 * steps.
 */
class RecycleMeterTest {
    private static final long SLEEP_NS = 2_000_000;

    @Test
    void eachDrainedBufferIsTimedFromItsReadyQueueToItsRecycledLane() throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("meter").backstop(Duration.ofSeconds(5));
        int kind = b.pool(new PoolSpec("k", 8, 4, 8));
        b.lane(kind, 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), buf -> Thread.sleep(SLEEP_NS / 1_000_000))) {
            LaneWriter w = p.writer(0);
            for (int i = 0; i < 13; i++) {            // 3 full buffers published (the 13th record opens a 4th)
                assertThat(w.claim()).isNotNegative();
            }
            PipelineParts parts = p.parts();
            long before = System.nanoTime();
            parts.shards[0].sweep();
            PoolStats drained = p.stats().pools().get(kind);
            assertThat(drained.buffersDrained()).isEqualTo(3);
            assertThat(drained.buffersRecycled()).as("none back yet").isZero();
            assertThat(drained.recycleMeanNs()).isZero();

            while (parts.collectorLanes[0].pollOnce()) {
                // three collector calls of at least 2 ms each
            }
            parts.replenisher.tick();
            long after = System.nanoTime();
            PoolStats back = p.stats().pools().get(kind);
            assertThat(back.buffersDrained()).isEqualTo(3);
            assertThat(back.buffersRecycled()).isEqualTo(3);
            // all three were drained before the first collector call and recycled after the last: each W covers
            // the three calls, and none is longer than the test's own window around the steps
            assertThat(back.recycleMeanNs()).isBetween(3 * SLEEP_NS, after - before);
            assertThat(back.recycleMaxNs()).isBetween(back.recycleMeanNs(), after - before);
            assertThat(back.recycleTotalNs()).isBetween(3 * back.recycleMeanNs(), 3 * back.recycleMeanNs() + 2);
            assertThat(back.collectNs()).isBetween(3 * SLEEP_NS, after - before);
            assertThat(back.peakInFlight()).as("4 taken (the 4th being filled), none back before the first return")
                    .isEqualTo(4);
            assertThat(back.freeQueueSlots()).isEqualTo(PipelineConfig.DEFAULT_FREE_QUEUE_SLOTS);

            w.flush();
            ManualHost.round(p);
            PipelineStats s = p.stop();
            PoolStats last = s.pools().get(kind);
            assertThat(last.buffersDrained()).as("the flushed 4th buffer too").isEqualTo(4);
            assertThat(last.buffersRecycled()).isEqualTo(4);
            assertThat(s.elapsedNs()).isPositive();
            assertThat(last.buffersPerSecond(2_000_000_000L)).isEqualTo(2.0);   // 4 buffers over 2 s
            assertThat(last.buffersPerSecond(0)).isZero();
        }
    }
}
