package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A lane stuck in one drain shard never stops another shard's lanes: with shard 0 wedged, the lanes of the
 * producer served by shard 1 keep delivering (their collected counts keep rising through the wedge), the wedged
 * producer blocks (no loss under BLOCK), and after the wedge everything reconciles with zero drops. Checked with
 * the shards on threads of their own and a wedged drain shard, and with both shards on one shared host loop and one
 * collector worker and a wedged collector. And a held collector call costs only its own lane when the peer lane is
 * on the same drain shard: the peer's records per time bin during the hold stay at its healthy rate.
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

    /** The peer's pace: one record per this many ns (100 000 records/s, far below what a lane takes). */
    private static final long PACE_NS = 10_000;
    private static final long HOLD_NS = 500_000_000;

    @Test
    void aHeldCollectorCallCostsOnlyItsOwnLaneOnTheSameShard() throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("same-shard").drainShards(1);
        // 16 buffers of 256 records: 41 ms of the peer's records, so the peer rides out the wedge threshold
        int kind = b.pool(new PoolSpec("t", 16, 256, 16));
        b.lane(kind, 0);  // lane 0, producer 0: its collector call is held
        b.lane(kind, 1);  // lane 1, producer 1: the peer, on the same drain shard
        long[][] writeTimes = new long[2][4_000_000 / 16];
        long[] arrivalTimes = new long[writeTimes[1].length];  // the peer's: when its collector call began
        int[] arrived = new int[2];
        long[] hold = new long[2];  // start, end
        AtomicBoolean holdNext = new AtomicBoolean();
        Collector c = buf -> {
            int lane = buf.lane();
            if (lane == 0 && holdNext.compareAndSet(true, false)) {
                hold[0] = System.nanoTime();
                LockSupport.parkNanos(HOLD_NS);
                while (System.nanoTime() - hold[0] < HOLD_NS) {
                    LockSupport.parkNanos(HOLD_NS / 10);
                }
                hold[1] = System.nanoTime();
            }
            MemorySegment r = buf.records();
            long now = System.nanoTime();
            for (int i = 0; i < buf.recordCount() && arrived[lane] < writeTimes[lane].length; i++) {
                if (lane == 1) {
                    arrivalTimes[arrived[lane]] = now;
                }
                writeTimes[lane][arrived[lane]++] = r.get(Mem.LONG, i * 16L + 8);
            }
        };
        AtomicBoolean running = new AtomicBoolean(true);
        long[] written = new long[2];
        try (HostGroup group = HostGroup.builder("same-shard").wedgeThreshold(Duration.ofMillis(10)).build();
                Pipeline p = Pipeline.start(b.build(), c, group)) {
            List<Thread> producers = new ArrayList<>();
            for (int lane = 0; lane < 2; lane++) {
                LaneWriter w = p.writer(lane);
                int l = lane;
                Thread t = new Thread(() -> {
                    long t0 = System.nanoTime();
                    while (running.get()) {
                        long due = (System.nanoTime() - t0) / PACE_NS;
                        while (written[l] < due && running.get()) {  // catch up after a park or a deschedule
                            long off = w.claim();
                            if (off >= 0) {
                                w.segment().set(Mem.LONG, off, written[l]);
                                w.segment().set(Mem.LONG, off + 8, System.nanoTime());
                            }
                            written[l]++;
                        }
                        LockSupport.parkNanos(PACE_NS);
                    }
                    w.flush();
                }, "same-shard-producer-" + lane);
                producers.add(t);
                t.start();
            }
            Thread.sleep(400);
            holdNext.set(true);
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (hold[1] == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(300);
            running.set(false);
            for (Thread t : producers) {
                t.join();
            }
            PipelineStats s = p.stop();

            assertThat(hold[1]).as("lane 0's collector call was held").isPositive();
            assertThat(s.reconciled()).isTrue();
            for (LaneStats l : s.lanes()) {
                assertThat(l.dropped()).as("lane %d dropped", l.lane()).isZero();
                assertThat(l.collected()).isEqualTo(written[l.lane()]);
            }
            assertThat(s.slowestCollectorLane()).as("the stats name the lane whose collector was slow")
                    .hasValueSatisfying(l -> {
                        assertThat(l.lane()).isZero();
                        assertThat(l.collectLongestNs()).isGreaterThanOrEqualTo(HOLD_NS);
                    });
            assertThat(s.lanes().get(1).collectLongestNs()).isLessThan(HOLD_NS);
            // the peer's records written in the hold's first half reached the collector before the hold ended: its
            // buffers were drained while lane 0's call was held (a drain stuck behind lane 0 would deliver them
            // after the hold, and a peer out of free buffers would have stopped writing)
            long firstHalfEnd = hold[0] + HOLD_NS / 2;
            int writtenInFirstHalf = 0;
            int lateInFirstHalf = 0;
            for (int i = 0; i < arrived[1]; i++) {
                if (writeTimes[1][i] >= hold[0] && writeTimes[1][i] < firstHalfEnd) {
                    writtenInFirstHalf++;
                    if (arrivalTimes[i] >= hold[1]) {
                        lateInFirstHalf++;
                    }
                }
            }
            assertThat(writtenInFirstHalf).as("the peer's records written in the hold's first half, more than its"
                    + " 16 buffers of 256 hold").isGreaterThan(16 * 256);
            assertThat(lateInFirstHalf).as("of those, delivered only after the hold ended").isZero();
        }
    }

    private static long peerCollected(Pipeline p) {
        return p.stats().lanes().get(1).collected() + p.stats().lanes().get(2).collected();
    }
}
