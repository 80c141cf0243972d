package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The free-queue depth series ({@link LaneStats#freeDepthSamples()}): under DROP, a collector held at seeded buffers
 * until the producer has dropped a seeded number of records in a row drains the lane's free queue for sure (a drop at
 * the pop gate means the producer found it empty), and a pool that never grows keeps it drained until the collector
 * is released. The series then reaches the producer's own low point, 0, stays within the queue's capacity, is in time
 * order, and keeps at most the configured intervals.
 */
class FreeDepthSeriesTest {
    private static final int BUFFERS_PER_LANE = 6;

    @ParameterizedTest(name = "seed {0}, cap {1}")
    @CsvSource({"1, 4096", "2, 4096", "3, 2", "4, 1"})
    @Timeout(60)
    void theSeriesSeesTheQueueDrainStaysInBoundsIsOrderedAndCapped(long seed, int cap) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        long holdAt = 3 + random.nextInt(20);
        int dropsBeforeRelease = 1 + random.nextInt(100);
        Semaphore release = new Semaphore(0);
        Collector collector = b -> {
            if (b.seq() == holdAt && !release.tryAcquire(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        };
        PipelineConfig.Builder b = PipelineConfig.builder("free-depth").policy(BackpressurePolicy.DROP)
                .maxDepthSamples(cap);
        int kind = b.pool(new PoolSpec("t", 8, 4, BUFFERS_PER_LANE));
        b.lane(kind, 0);
        b.recycledWatermark(kind, 0);   // the pool never grows: a held collector drains the free queue
        LaneStats lane;
        PipelineConfig config = b.build();
        try (Pipeline p = Pipeline.start(config, collector)) {
            LaneWriter w = p.writer(0);
            int run = 0;
            boolean released = false;
            for (int i = 0, after = 0; !released || after < 400; i++) {
                long off = w.claim();
                if (off < 0) {
                    if (++run == dropsBeforeRelease && !released) {
                        released = true;
                        release.release();
                    }
                } else {
                    run = 0;
                    w.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, off, i);
                    after += released ? 1 : 0;
                }
                assertThat(i).as("seed %d: the hold causes drops", seed).isLessThan(5_000_000);
            }
            w.flush();
            PipelineStats s = p.stop();
            assertThat(s.reconciled()).isTrue();
            lane = s.lanes().get(0);
        }
        List<DepthSample> series = lane.freeDepthSamples();
        long capacity = Math.min(config.freeQueueSlots(), BUFFERS_PER_LANE);
        assertThat(lane.droppedPopGate()).as("the producer found its free queue empty").isPositive();
        assertThat(lane.minFreeDepth()).isZero();
        assertThat(series).as("seed %d", seed).isNotEmpty().hasSizeLessThanOrEqualTo(cap);
        assertThat(series.stream().mapToLong(DepthSample::minDepth).min().orElseThrow())
                .as("seed %d: the series' low point is the lane's minFreeDepth", seed).isEqualTo(lane.minFreeDepth());
        assertThat(series.stream().mapToLong(DepthSample::maxDepth).max().orElseThrow())
                .as("the startup fill filled the queue").isEqualTo(capacity);
        for (int i = 0; i < series.size(); i++) {
            DepthSample d = series.get(i);
            assertThat(d.minDepth()).isBetween(0L, capacity);
            assertThat(d.maxDepth()).isBetween(d.minDepth(), capacity);
            assertThat(d.lastDepth()).isBetween(d.minDepth(), d.maxDepth());
            assertThat(d.endNs()).isGreaterThanOrEqualTo(d.startNs());
            if (i > 0) {
                assertThat(d.startNs()).as("interval %d starts after the previous one ends", i)
                        .isGreaterThanOrEqualTo(series.get(i - 1).endNs());
                assertThat(d.minDepth() == d.maxDepth() && d.minDepth() == series.get(i - 1).lastDepth())
                        .as("interval %d records a change", i).isFalse();
            }
        }
    }
}
