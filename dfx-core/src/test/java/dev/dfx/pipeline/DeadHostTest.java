package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A dead host (collector blocked, or drain shard wedged): each gate gives up within its backstop, the lane is
 * then degraded and drops at once, and it recovers by itself when the host resumes.
 */
class DeadHostTest {
    private static final Duration BACKSTOP = Duration.ofMillis(150);
    private static final int RPB = 8;

    private static long write(LaneWriter w, long n) {
        long off = w.claim();
        if (off >= 0) {
            SequenceChecker.writeRecord(w.segment(), off, w.lane(), n);
        }
        return off;
    }

    /** Writes until a gate gives up (the lane turns degraded); returns how long that claim took (ns). */
    private static long writeUntilDegraded(LaneWriter w, long[] n) {
        while (true) {
            long t0 = System.nanoTime();
            write(w, n[0]++);
            long took = System.nanoTime() - t0;
            if (w.degraded()) {
                return took;
            }
            if (n[0] > 1_000_000) {
                throw new AssertionError("the lane never dropped");
            }
        }
    }

    private static void assertRecovers(Pipeline p, LaneWriter w, long[] n) throws InterruptedException {
        long before = p.stats().lanes().get(0).collected();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (p.stats().lanes().get(0).collected() <= before || w.degraded()) {
            write(w, n[0]++);
            Thread.sleep(0, 200_000);
            assertThat(System.nanoTime()).as("lane recovers after the host resumes").isLessThan(deadline);
        }
    }

    @Test
    void blockedCollectorPopGateGivesUpThenLaneDropsAtOnceThenRecovers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        SequenceChecker checker = new SequenceChecker(1, 0);
        Collector blocking = buf -> {
            release.await();
            checker.accept(buf);
        };
        PipelineConfig.Builder b = PipelineConfig.builder("dead-collector").backstop(BACKSTOP);
        b.lane(b.pool(new PoolSpec("t", SequenceChecker.RECORD, RPB, 2)), 0);
        try (Pipeline p = Pipeline.start(b.build(), blocking)) {
            LaneWriter w = p.writer(0);
            long[] n = {0};
            long took = writeUntilDegraded(w, n);

            assertThat(took).as("the pop gate gives up after its backstop")
                    .isBetween(BACKSTOP.toNanos(), BACKSTOP.toNanos() + TimeUnit.SECONDS.toNanos(5));
            LaneStats s = p.stats().lanes().get(0);
            assertThat(s.droppedPopGate()).isEqualTo(1);
            assertThat(s.backstopExpiries()).isEqualTo(1);
            assertThat(s.degraded()).isTrue();

            long t0 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                assertThat(write(w, n[0]++)).isEqualTo(-1);
            }
            assertThat(System.nanoTime() - t0).as("1000 records while degraded cost far less than one backstop")
                    .isLessThan(BACKSTOP.toNanos());
            s = p.stats().lanes().get(0);
            assertThat(s.droppedDegraded()).isEqualTo(1000);
            assertThat(s.backstopExpiries()).isEqualTo(1);

            release.countDown();
            assertRecovers(p, w, n);
            w.flush();
            PipelineStats fin = p.stop();
            LaneStats l = fin.lanes().get(0);
            assertThat(l.total()).isEqualTo(n[0]);
            assertThat(l.collected()).isEqualTo(checker.delivered(0));
            assertThat(l.collected() + l.dropped()).isEqualTo(l.total());
            assertThat(checker.problems()).isEmpty();
            assertThat(fin.reconciled()).isTrue();
        }
    }

    @Test
    void wedgedDrainShardPushGateGivesUpThenLaneDropsAtOnceThenRecovers() throws Exception {
        SequenceChecker checker = new SequenceChecker(1, 0);
        PipelineConfig.Builder b = PipelineConfig.builder("wedged-drain").backstop(BACKSTOP).readyQueueSize(2);
        b.lane(b.pool(new PoolSpec("t", SequenceChecker.RECORD, RPB, 4)), 0);
        try (Pipeline p = Pipeline.start(b.build(), checker)) {
            DrainShard shard = p.parts().shards[0];
            shard.pause(true);
            LaneWriter w = p.writer(0);
            long[] n = {0};
            long took = writeUntilDegraded(w, n);  // 1st buffer published; 2nd waits at the full ready queue

            assertThat(took).isBetween(BACKSTOP.toNanos(), BACKSTOP.toNanos() + TimeUnit.SECONDS.toNanos(5));
            LaneStats s = p.stats().lanes().get(0);
            assertThat(s.droppedPushGate()).isEqualTo(RPB);
            assertThat(s.backstopExpiries()).isEqualTo(1);
            assertThat(s.degraded()).isTrue();
            assertThat(s.stallWindows()).hasSize(1);

            long t0 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                write(w, n[0]++);
            }
            assertThat(System.nanoTime() - t0).isLessThan(BACKSTOP.toNanos());
            s = p.stats().lanes().get(0);
            assertThat(s.backstopExpiries()).as("no new wait while degraded").isEqualTo(1);
            assertThat(s.droppedDegraded()).isPositive();

            shard.pause(false);
            assertRecovers(p, w, n);
            w.flush();
            PipelineStats fin = p.stop();
            LaneStats l = fin.lanes().get(0);
            assertThat(l.collected()).isEqualTo(checker.delivered(0));
            assertThat(l.collected() + l.dropped()).isEqualTo(n[0]);
            assertThat(checker.problems()).isEmpty();
            assertThat(fin.reconciled()).isTrue();
        }
    }
}
