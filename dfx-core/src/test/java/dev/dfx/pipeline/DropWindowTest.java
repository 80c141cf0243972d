package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Drop windows ({@link DropWindow}, {@link LaneStats#dropWindows()}): when a lane's drops happened. Under DROP, a
 * collector held back at chosen buffers makes the lane lose records only while it is held; the producer notes, for
 * every claim, the clock before and after it and whether it was dropped, so the test knows each run of consecutive
 * drops and when it happened, and compares the lane's windows with them.
 */
class DropWindowTest {
    private static final int RECORDS_PER_BUFFER = 8;

    /** One claim as the producer saw it. */
    private record Claim(long beforeNs, long afterNs, boolean dropped) {
    }

    /** What a held-collector recording gave: every claim as the producer saw it, and the lane's stats. */
    private record Held(List<Claim> claims, LaneStats lane) {
    }

    /**
     * Writes one lane under DROP with a collector that is held at some buffers (chosen by {@code seed}) until the
     * producer has seen a chosen number of drops in a row, so every hold makes a run of drops.
     */
    private static Held recordWithHeldCollector(long seed, int maxDropWindows) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int holds = 1 + random.nextInt(4);
        List<Long> holdAt = new ArrayList<>();   // buffer seqs at which the collector is held
        List<Integer> dropsPerHold = new ArrayList<>();   // released after this many drops in a row
        long next = 0;
        for (int h = 0; h < holds; h++) {
            next += 2 + random.nextInt(20);
            holdAt.add(next);
            dropsPerHold.add(1 + random.nextInt(200));
        }
        Semaphore release = new Semaphore(0);
        Collector collector = b -> {
            if (holdAt.contains(b.seq()) && !release.tryAcquire(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        };
        PipelineConfig.Builder b = PipelineConfig.builder("drop-windows").policy(BackpressurePolicy.DROP)
                .maxDropWindows(maxDropWindows);
        int kind = b.pool(new PoolSpec("t", 8, RECORDS_PER_BUFFER, 2));
        b.lane(kind, 0);
        b.recycledWatermark(kind, 0);   // the pool never grows: a held collector exhausts it
        List<Claim> claims = new ArrayList<>();
        try (Pipeline p = Pipeline.start(b.build(), collector)) {
            LaneWriter w = p.writer(0);
            int released = 0;
            int run = 0;
            // write until every hold was released and a stretch after the last one got through
            for (int after = 0; released < holds || after < 50 * RECORDS_PER_BUFFER; ) {
                long before = System.nanoTime();
                long off = w.claim();
                claims.add(new Claim(before, System.nanoTime(), off < 0));
                if (off < 0) {
                    run++;
                    if (released < holds && run == dropsPerHold.get(released)) {
                        released++;
                        release.release();
                    }
                } else {
                    run = 0;
                    w.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, off, claims.size());
                    after += released == holds ? 1 : 0;
                }
                assertThat(claims.size()).as("seed %d: the holds cause drops", seed).isLessThan(5_000_000);
            }
            w.flush();
            PipelineStats s = p.stop();
            assertThat(s.reconciled()).isTrue();
            return new Held(claims, s.lanes().get(0));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    @Timeout(60)
    void eachRunOfDropsIsOneWindowAtTheTimeOfItsFirstAndLastDrop(long seed) throws Exception {
        Held h = recordWithHeldCollector(seed, PipelineConfig.DEFAULT_MAX_DROP_WINDOWS);
        List<long[]> expected = runs(h.claims());   // {first claim, last claim, count}
        LaneStats lane = h.lane();
        assertThat(expected).as("seed %d: at least one run of drops per hold", seed).isNotEmpty();
        assertThat(lane.dropped()).isEqualTo(expected.stream().mapToLong(r -> r[2]).sum());
        assertThat(lane.droppedPopGate()).isEqualTo(lane.dropped());
        assertThat(lane.dropWindows()).hasSize(expected.size());
        assertThat(lane.dropRuns()).isEqualTo(expected.size());
        assertThat(lane.droppedUnplaced()).isZero();
        for (int i = 0; i < expected.size(); i++) {
            DropWindow win = lane.dropWindows().get(i);
            Claim first = h.claims().get((int) expected.get(i)[0]);
            Claim last = h.claims().get((int) expected.get(i)[1]);
            assertThat(win.count()).as("seed %d window %d count", seed, i).isEqualTo(expected.get(i)[2]);
            assertThat(win.startNs()).as("starts at its first drop").isBetween(first.beforeNs(), first.afterNs());
            assertThat(win.endNs()).as("ends at its last drop").isBetween(last.beforeNs(), last.afterNs());
        }
        assertOrderedAndDisjoint(lane.dropWindows());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {5, 6})
    @Timeout(60)
    void pastTheCapLaterRunsJoinTheNewestWindowAndTheCountsStillAddUp(long seed) throws Exception {
        Held h = recordWithHeldCollector(seed, 1);
        List<long[]> expected = runs(h.claims());
        LaneStats lane = h.lane();
        assertThat(lane.dropRuns()).isEqualTo(expected.size());
        assertThat(lane.dropWindows()).singleElement().satisfies(w -> {
            assertThat(w.count()).isEqualTo(lane.dropped());
            assertThat(w.startNs()).isBetween(h.claims().get((int) expected.get(0)[0]).beforeNs(),
                    h.claims().get((int) expected.get(0)[0]).afterNs());
            Claim last = h.claims().get((int) expected.get(expected.size() - 1)[1]);
            assertThat(w.endNs()).isBetween(last.beforeNs(), last.afterNs());
        });
    }

    /** @return each maximal run of dropped claims: index of its first and last claim, and its length */
    private static List<long[]> runs(List<Claim> claims) {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            if (claims.get(i).dropped()) {
                int j = i;
                while (j + 1 < claims.size() && claims.get(j + 1).dropped()) {
                    j++;
                }
                out.add(new long[] {i, j, j - i + 1});
                i = j;
            }
        }
        return out;
    }

    static void assertOrderedAndDisjoint(List<DropWindow> windows) {
        for (int i = 1; i < windows.size(); i++) {
            assertThat(windows.get(i).startNs()).as("window %d starts after window %d ends", i, i - 1)
                    .isGreaterThan(windows.get(i - 1).endNs());
        }
    }

    @Test
    @Timeout(60)
    void aThrowingCollectorsLossesAreOneWindowPerRunOfFailedCalls() throws Exception {
        // buffers 3..5 fail, 6 goes through, 9 fails: two runs, at the times of those collector calls
        List<long[]> calls = new ArrayList<>();   // seq and start of each failing call
        Collector collector = b -> {
            long start = System.nanoTime();
            if (b.seq() >= 3 && b.seq() <= 5 || b.seq() == 9) {
                synchronized (calls) {
                    calls.add(new long[] {b.seq(), start});
                }
                throw new IllegalStateException("no room for buffer " + b.seq());
            }
        };
        PipelineConfig.Builder b = PipelineConfig.builder("collector-drops");
        int kind = b.pool(new PoolSpec("t", 8, RECORDS_PER_BUFFER, 4));
        b.lane(kind, 0);
        try (Pipeline p = Pipeline.start(b.build(), collector)) {
            LaneWriter w = p.writer(0);
            long before = System.nanoTime();
            for (int i = 0; i < 12 * RECORDS_PER_BUFFER; i++) {
                assertThat(w.claim()).isNotNegative();
            }
            w.flush();
            PipelineStats s = p.stop();
            long after = System.nanoTime();
            LaneStats lane = s.lanes().get(0);
            assertThat(lane.droppedCollector()).isEqualTo(4L * RECORDS_PER_BUFFER);
            assertThat(lane.dropWindows()).extracting(DropWindow::count)
                    .containsExactly(3L * RECORDS_PER_BUFFER, (long) RECORDS_PER_BUFFER);
            assertThat(lane.dropRuns()).isEqualTo(2);
            DropWindow first = lane.dropWindows().get(0);
            DropWindow second = lane.dropWindows().get(1);
            // each window runs from the start of its first failing call to the end of its last one
            assertThat(first.startNs()).isBetween(before, calls.get(0)[1]);
            assertThat(first.endNs()).isGreaterThan(calls.get(2)[1]).isLessThan(second.startNs());
            assertThat(second.startNs()).isLessThanOrEqualTo(calls.get(3)[1]);
            assertThat(second.endNs()).isGreaterThan(calls.get(3)[1]).isLessThan(after);
            assertThat(lane.droppedUnplaced()).isZero();
        }
    }

    @Test
    void unionJoinsOverlapsKeepsTheSumAndHonoursTheCap() {
        SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 500; round++) {
            List<DropWindow> in = new ArrayList<>();
            int n = random.nextInt(30);
            long sum = 0;
            for (int i = 0; i < n; i++) {
                long start = random.nextLong(1_000);
                long count = 1 + random.nextLong(50);
                in.add(new DropWindow(start, start + random.nextLong(40), count));
                sum += count;
            }
            int cap = 1 + random.nextInt(8);
            List<DropWindow> out = DropWindow.union(in, cap);
            assertThat(out.size()).isLessThanOrEqualTo(cap);
            assertThat(out.stream().mapToLong(DropWindow::count).sum()).isEqualTo(sum);
            assertOrderedAndDisjoint(out);
            for (DropWindow w : in) {   // every input lies inside one output window
                assertThat(out).anyMatch(o -> o.startNs() <= w.startNs() && w.endNs() <= o.endNs());
            }
            if (out.size() < cap) {   // not capped: windows are joined only where they touch
                for (int i = 1; i < out.size(); i++) {
                    long gapStart = out.get(i - 1).endNs();
                    long gapEnd = out.get(i).startNs();
                    assertThat(in).noneMatch(w -> w.startNs() <= gapStart && w.endNs() >= gapEnd);
                }
            }
        }
        assertThatThrownBy(() -> new DropWindow(5, 4, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DropWindow(5, 5, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
