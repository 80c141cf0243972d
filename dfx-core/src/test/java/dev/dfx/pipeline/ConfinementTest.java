package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A lane stuck in one drain shard never stops another shard's lanes: with shard 0 wedged, the lanes of the
 * producer served by shard 1 keep delivering (their collected counts keep rising through the wedge), the wedged
 * producer blocks (no loss under BLOCK), and after the wedge everything reconciles with zero drops. Checked with
 * the shards on threads of their own and a wedged drain shard, and with both shards on one shared host loop and one
 * collector worker and a wedged collector.
 */
class ConfinementTest {

    /** Starts, wedges and unwedges shard 0. */
    private interface Wedge {
        Pipeline start(PipelineConfig c, Collector checker);

        void wedge(Pipeline p);

        void release(Pipeline p);
    }

    @Test
    void wedgedShardDoesNotStopPeerShardLanes() throws Exception {
        check(new Wedge() {
            @Override
            public Pipeline start(PipelineConfig c, Collector checker) {
                return Pipeline.start(c, checker);
            }

            @Override
            public void wedge(Pipeline p) {
                p.parts().shards[0].pause(true);
            }

            @Override
            public void release(Pipeline p) {
                p.parts().shards[0].pause(false);
            }
        });
    }

    @Test
    void wedgedCollectorOnSharedThreadsDoesNotStopPeerShardLanes() throws Exception {
        CountDownLatch wedged = new CountDownLatch(1);
        AtomicBoolean wedging = new AtomicBoolean();
        try (HostGroup group = HostGroup.builder("confine").wedgeThreshold(Duration.ofMillis(20)).build()) {
            check(new Wedge() {
                @Override
                public Pipeline start(PipelineConfig c, Collector checker) {
                    Collector lane0Wedges = buf -> {
                        if (buf.lane() == 0 && wedging.get()) {
                            wedged.await();
                        }
                        checker.accept(buf);
                    };
                    Pipeline p = Pipeline.start(c, lane0Wedges, group);
                    assertThat(group.hostThreads()).as("both shards on one loop").isEqualTo(1);
                    return p;
                }

                @Override
                public void wedge(Pipeline p) {
                    wedging.set(true);
                }

                @Override
                public void release(Pipeline p) {
                    wedging.set(false);
                    wedged.countDown();
                }
            });
        }
    }

    private static void check(Wedge wedge) throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("confine").drainShards(2);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 64, 4));
        b.lane(kind, 0);  // lane 0, producer 0 -> shard 0
        b.lane(kind, 1);  // lane 1, producer 1 -> shard 1
        b.lane(kind, 1);  // lane 2, producer 1 -> shard 1
        SequenceChecker checker = new SequenceChecker(3, 0);
        AtomicBoolean running = new AtomicBoolean(true);
        try (Pipeline p = wedge.start(b.build(), checker)) {
            assertThat(p.parts().shards[0].serves(0)).isTrue();
            assertThat(p.parts().shards[1].serves(1)).isTrue();
            List<Thread> producers = new ArrayList<>();
            long[] written = new long[3];
            for (int q = 0; q < 2; q++) {
                List<LaneWriter> mine = q == 0 ? List.of(p.writer(0)) : List.of(p.writer(1), p.writer(2));
                Thread t = new Thread(() -> {
                    while (running.get()) {
                        for (LaneWriter w : mine) {
                            long off = w.claim();
                            if (off >= 0) {
                                SequenceChecker.writeRecord(w.segment(), off, w.lane(), written[w.lane()]);
                            }
                            written[w.lane()]++;
                        }
                        Thread.onSpinWait();
                    }
                    mine.forEach(LaneWriter::flush);
                });
                producers.add(t);
                t.start();
            }
            Thread.sleep(50);
            wedge.wedge(p);
            long wedgeStart = System.nanoTime();
            Thread.sleep(100);  // let lane 0 run into its gates
            long lane0AtWedge = p.stats().lanes().get(0).collected();
            // Progress, not a rate: each sample waits (up to a generous bound, so a loaded machine that
            // deschedules the peer producer for a while cannot fail it) until the peer lanes delivered more.
            long[] peer = new long[6];
            peer[0] = peerCollected(p);
            for (int i = 1; i < peer.length; i++) {
                long deadline = System.nanoTime() + 4_000_000_000L;  // 5 x 4 s stays inside the 30 s backstop
                do {
                    Thread.sleep(20);
                    peer[i] = peerCollected(p);
                } while (peer[i] <= peer[i - 1] && System.nanoTime() < deadline);
            }
            long lane0AfterWedge = p.stats().lanes().get(0).collected();
            wedge.release(p);
            long wedgeEnd = System.nanoTime();
            Thread.sleep(50);
            running.set(false);
            for (Thread t : producers) {
                t.join();
            }
            PipelineStats s = p.stop();

            for (int i = 1; i < peer.length; i++) {
                assertThat(peer[i]).as("peer-shard lanes keep delivering during the wedge (sample %d)", i)
                        .isGreaterThan(peer[i - 1]);
            }
            assertThat(lane0AfterWedge).as("the wedged lane delivers nothing meanwhile").isEqualTo(lane0AtWedge);
            LaneStats l0 = s.lanes().get(0);
            assertThat(l0.stallCount()).as("the wedged lane stalled").isPositive();
            assertThat(l0.stallWindows()).anyMatch(w -> w.startNs() < wedgeEnd && w.endNs() > wedgeStart);
            // a peer lane may wait briefly for its own (healthy) shard, never for the length of the wedge
            assertThat(s.lanes().get(1).stallWindows()).noneMatch(w -> w.startNs() <= wedgeStart && w.endNs() >= wedgeEnd);
            assertThat(checker.problems()).isEmpty();
            for (LaneStats l : s.lanes()) {
                assertThat(l.dropped()).isZero();
                assertThat(l.total()).isEqualTo(written[l.lane()]);
                assertThat(checker.delivered(l.lane())).isEqualTo(written[l.lane()]);
            }
            assertThat(s.reconciled()).isTrue();
        }
    }

    private static long peerCollected(Pipeline p) {
        return p.stats().lanes().get(1).collected() + p.stats().lanes().get(2).collected();
    }
}
