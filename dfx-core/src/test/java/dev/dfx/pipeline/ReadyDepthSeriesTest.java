package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ready-queue backlog series ({@link QueueStats#readyDepthSamples()}), with the host played step by step
 * ({@link ManualHost}): each round the lanes of producer 0 publish a seeded number of buffers, then a host round
 * sweeps (it finds exactly that backlog) and a second round finds the queue empty. Rounds are more than the series'
 * interval apart, so each change the sweeps find starts an interval: the series is exactly the changes of the known
 * sequence {@code k1, 0, k2, 0, ...}, until the cap, after which the last interval keeps the extremes and the final
 * depth of the rest. Producer 1 publishes nothing: its series is one interval at depth 0.
 */
class ReadyDepthSeriesTest {
    private static final int LANES = 3;
    private static final int BUFFERS_PER_LANE = 4;
    private static final int ROUNDS = 40;

    @ParameterizedTest(name = "seed {0}, cap {1}")
    @CsvSource({"1, 4096", "2, 4096", "3, 7", "4, 2", "5, 1"})
    void theSeriesIsTheSequenceOfBacklogsTheSweepsFound(long seed, int cap) {
        SplittableRandom random = new SplittableRandom(seed);
        PipelineConfig.Builder b = PipelineConfig.builder("ready-depth").maxDepthSamples(cap);
        int kind = b.pool(new PoolSpec("t", 8, 4, BUFFERS_PER_LANE));
        for (int l = 0; l < LANES; l++) {
            b.lane(kind, 0);
        }
        b.lane(kind, 1);
        List<Long> found = new ArrayList<>();
        long published = 0;
        PipelineStats stats;
        try (Pipeline p = ManualHost.unstarted(b.build(), buf -> { })) {
            for (int r = 0; r < ROUNDS; r++) {
                long k = 0;
                for (int l = 0; l < LANES; l++) {
                    LaneWriter w = p.writer(l);
                    int n = random.nextInt(BUFFERS_PER_LANE); // 0..3: the free queue holds 4
                    for (int i = 0; i < n; i++) {
                        assertThat(w.claim()).as("round %d lane %d", r, l).isNotNegative();
                        w.flush(); // publishes the one-record buffer
                    }
                    k += n;
                }
                published += k;
                ManualHost.round(p);
                found.add(k);
                waitPastTheInterval();
                ManualHost.round(p);
                found.add(0L);
                waitPastTheInterval();
            }
            stats = p.stop();
        }
        assertThat(stats.reconciled()).isTrue();
        assertThat(stats.collected()).isEqualTo(published);

        List<Long> changes = new ArrayList<>();
        for (long d : found) {
            if (changes.isEmpty() || changes.getLast() != d) {
                changes.add(d);
            }
        }
        List<DepthSample> series = stats.queues().get(0).readyDepthSamples();
        assertThat(series).as("seed %d: one interval per change, up to the cap", seed)
                .hasSize(Math.min(cap, changes.size()));
        for (int i = 0; i < series.size(); i++) {
            DepthSample d = series.get(i);
            if (i < cap - 1 || changes.size() <= cap) {
                long want = changes.get(i);
                assertThat(List.of(d.minDepth(), d.maxDepth(), d.lastDepth())).as("seed %d interval %d", seed, i)
                        .containsExactly(want, want, want);
            } else { // the last interval at the cap folds every later change
                List<Long> rest = changes.subList(i, changes.size());
                assertThat(d.minDepth()).isEqualTo(rest.stream().mapToLong(Long::longValue).min().orElseThrow());
                assertThat(d.maxDepth()).isEqualTo(rest.stream().mapToLong(Long::longValue).max().orElseThrow());
                assertThat(d.lastDepth()).isEqualTo(rest.getLast());
            }
            if (i > 0) {
                assertThat(d.startNs()).isGreaterThan(series.get(i - 1).endNs());
            }
        }
        long highest = found.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(stats.queues().get(0).maxReadyDepth()).as("the producer's own high point, against a head it may"
                + " have read earlier").isGreaterThanOrEqualTo(highest);
        List<DepthSample> unused = stats.queues().get(1).readyDepthSamples();
        assertThat(unused).as("a queue nothing was published to").hasSize(1);
        assertThat(unused.getFirst()).isEqualTo(new DepthSample(unused.getFirst().startNs(),
                unused.getFirst().startNs(), 0, 0, 0));
        assertThat(stats.queues().get(1).maxReadyDepth()).isZero();
    }

    /** Busy-waits until the next change is more than one series interval after any change so far. */
    private static void waitPastTheInterval() {
        long from = System.nanoTime();
        while (System.nanoTime() - from <= PipelineConfig.DEPTH_SAMPLE_INTERVAL_NS) {
            Thread.onSpinWait();
        }
    }
}
