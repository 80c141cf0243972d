package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The stop protocol (docs/pipeline.md, host rule 4; {@link StopProtocol}) under producers that flush, exit without
 * flushing, flush while stop runs, or keep writing through it: in every seeded run each record arrives at most once
 * (record numbers strictly increase per lane, buffer seqs run 0, 1, 2, ...), every record the collector did not get is
 * counted dropped by a cause, reconcile holds, and a lane that was attached when stop began and whose writer ended
 * before stop's wait ran out loses nothing to {@code STOPPED} (an idle lane is closed at once: a writer that starts
 * on it after stop began is refused). And stop returns, naming what was stuck, when an arena-ack hook or a collector call never does.
 */
class StopProtocolTest {
    private static final int DEFAULT_RUNS = 200;
    private static final int STRESS_RUNS = 5_000;

    /** What one producer thread does around the stop. */
    private enum Behaviour {
        /** Writes its records, flushes, ends (usually before stop begins). */
        FLUSH,
        /** Writes its records and ends without a flush: stop recovers its current buffer. */
        EXIT,
        /** Writes until stop has begun, then flushes and ends: the flush races stop's wait. */
        FLUSH_DURING_STOP,
        /** Keeps writing until stop has returned: stop revokes its lanes after the backstop. */
        KEEP_WRITING
    }

    @Test
    void seededStopsUnderFlushingExitingAndStillWritingProducersLoseNothingUncounted() throws Exception {
        runs(DEFAULT_RUNS);
    }

    @Tag("stress")
    @Test
    void thousandsOfSeededStopsLoseNothingUncounted() throws Exception {
        runs(STRESS_RUNS);
    }

    private static void runs(int runs) throws Exception {
        try (HostGroup group = HostGroup.builder("stop").hostThreads(2).build()) {
            for (int seed = 0; seed < runs; seed++) {
                run(seed, group);
            }
        }
    }

    private static void run(long seed, HostGroup group) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        int producers = 1 + rnd.nextInt(3);
        int lanesPerProducer = 1 + rnd.nextInt(2);
        PipelineConfig.Builder b = PipelineConfig.builder("stop-" + seed).drainShards(1 + rnd.nextInt(Math.min(2, producers)))
                .memoryMode(rnd.nextBoolean() ? MemoryMode.SHARED : MemoryMode.COPY)
                .backstop(Duration.ofMillis(5 + rnd.nextInt(20)));
        int recordsPerBuffer = 2 + rnd.nextInt(30);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, recordsPerBuffer, 1 + rnd.nextInt(4)));
        for (int q = 0; q < producers; q++) {
            for (int i = 0; i < lanesPerProducer; i++) {
                b.lane(kind, q);
            }
        }
        int lanes = producers * lanesPerProducer;
        SequenceChecker checker = new SequenceChecker(lanes, 0);
        Behaviour[] behaviour = new Behaviour[producers];
        long[] written = new long[lanes];
        AtomicIntegerArray claimed = new AtomicIntegerArray(lanes);
        AtomicBoolean stopping = new AtomicBoolean();
        AtomicBoolean stopped = new AtomicBoolean();
        List<Throwable> failures = new ArrayList<>();
        try (Pipeline p = Pipeline.start(b.build(), checker, group)) {
            List<Thread> threads = new ArrayList<>();
            for (int q = 0; q < producers; q++) {
                behaviour[q] = Behaviour.values()[rnd.nextInt(Behaviour.values().length)];
                List<LaneWriter> mine = new ArrayList<>();
                for (int i = 0; i < lanesPerProducer; i++) {
                    mine.add(p.writer(q * lanesPerProducer + i));
                }
                Behaviour what = behaviour[q];
                long records = 1 + rnd.nextInt(3_000);
                SplittableRandom own = rnd.split();
                Thread t = new Thread(() -> {
                    try {
                        produce(what, mine, records, written, claimed, own, stopping, stopped);
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }, "stop-producer-" + q);
                threads.add(t);
                t.start();
            }
            LockSupport.parkNanos(rnd.nextInt(2_000_000));
            boolean[] attachedAtStop = new boolean[lanes];
            for (int l = 0; l < lanes; l++) {
                attachedAtStop[l] = claimed.get(l) != 0;  // its first claim attached the lane before stop began
            }
            stopping.set(true);
            PipelineStats s = p.stop();
            stopped.set(true);
            for (Thread t : threads) {
                t.join();
            }
            awaitCollectorCalls(p);
            assertThat(failures).as("seed %d: producer failures", seed).isEmpty();
            check(seed, s, checker, behaviour, attachedAtStop, written, recordsPerBuffer);
        }
    }

    private static void produce(Behaviour what, List<LaneWriter> lanes, long records, long[] written,
            AtomicIntegerArray claimed, SplittableRandom rnd, AtomicBoolean stopping, AtomicBoolean stopped) {
        while (true) {
            boolean more = switch (what) {
                case FLUSH, EXIT -> lanes.stream().anyMatch(w -> written[w.lane()] < records);
                case FLUSH_DURING_STOP -> !stopping.get();
                case KEEP_WRITING -> !stopped.get();
            };
            if (!more) {
                break;
            }
            LaneWriter w = lanes.get(rnd.nextInt(lanes.size()));
            int burst = 1 + rnd.nextInt(16);
            for (int j = 0; j < burst; j++) {
                long n = written[w.lane()]++;
                long off = w.claim();
                if (off >= 0) {
                    SequenceChecker.writeRecord(w.segment(), off, w.lane(), n);
                }
                if (n == 0) {
                    claimed.set(w.lane(), 1);
                }
            }
        }
        if (what != Behaviour.EXIT && what != Behaviour.KEEP_WRITING) {
            lanes.forEach(LaneWriter::flush);
        }
    }

    /**
     * Waits until no collector call of the pipeline runs: one that outlived stop's bound (the machine did not run its
     * worker in time) returns on its own; then the checker's counts are final and visible here.
     */
    private static void awaitCollectorCalls(Pipeline p) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        for (CollectorLane c : p.parts().collectorLanes) {
            while (c.inCallSinceNs() != 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(c.inCallSinceNs()).as("%s returned", c).isZero();
        }
    }

    private static void check(long seed, PipelineStats s, SequenceChecker checker, Behaviour[] behaviour,
            boolean[] attachedAtStop, long[] written, int recordsPerBuffer) {
        assertThat(checker.problems()).as("seed %d: duplicates, order or torn records", seed).isEmpty();
        assertThat(s.reconciled()).as("seed %d: reconciled %s errors %s stuck %s", seed, s.lanes(), s.errors(), s.stuck()).isTrue();
        for (LaneStats l : s.lanes()) {
            Behaviour what = behaviour[l.producer()];
            String at = "seed " + seed + " lane " + l.lane() + " (" + what + ", stuck " + s.stuck() + ")";
            boolean callOutlivedStop = s.stuck().stream()
                    .anyMatch(m -> m.startsWith("lane " + l.lane() + ": its collector call has run"));
            long late = checker.delivered(l.lane()) - l.collected();
            if (callOutlivedStop) {
                // stop gave up on the call it found running (a loaded machine can hold a worker past a short
                // backstop): that one buffer is counted dropped (stopped) and reached the collector when the call
                // returned, after the final snapshot; no other call began after stop gave up
                assertThat(late).as("%s: the collector got at most the buffer of the call stop gave up on", at)
                        .isBetween(0L, Math.min(recordsPerBuffer, l.droppedStopped()));
            } else {
                assertThat(late).as("%s: collected is what the collector got", at).isZero();
            }
            assertThat(l.collected() + l.dropped()).as("%s: every record collected or dropped by a cause", at)
                    .isEqualTo(l.total());
            assertThat(l.droppedCollector()).as(at).isZero();
            assertThat(l.total()).as("%s: total at stop", at).isLessThanOrEqualTo(written[l.lane()]);
            boolean revoked = s.errors().stream().anyMatch(e -> e.startsWith("lane " + l.lane() + " was still writing"));
            if (what != Behaviour.KEEP_WRITING && attachedAtStop[l.lane()] && !revoked && s.stuck().isEmpty()) {
                // attached when stop began and ended within the wait: stop waited for all of it
                assertThat(l.total()).as("%s: total", at).isEqualTo(written[l.lane()]);
                assertThat(l.droppedStopped()).as("%s: a lane that ended in time loses nothing to stop", at).isZero();
                assertThat(checker.gaps(l.lane()) + (written[l.lane()] - 1 - checker.last(l.lane())))
                        .as("%s: records missing are the ones dropped at the gates", at)
                        .isEqualTo(l.dropped());
            }
        }
    }

    @Test
    void stopReturnsAndNamesTheHookWhenAnArenaAckHookNeverReturns() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean wedge = new AtomicBoolean();
        PipelineConfig.Builder b = PipelineConfig.builder("stuck-hook").backstop(Duration.ofMillis(200))
                .arenaAckHook(() -> {
                    if (wedge.get()) {
                        entered.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
        b.lane(b.pool(new PoolSpec("t", SequenceChecker.RECORD, 8, 8)), 0);
        SequenceChecker checker = new SequenceChecker(1, 0);
        Pipeline p = Pipeline.start(b.build(), checker);
        try {
            LaneWriter w = p.writer(0);
            for (int n = 0; n < 100; n++) {
                write(w, n);
            }
            wedge.set(true);
            entered.await();  // the host loop is inside the hook: nothing is drained from here on
            for (int n = 100; n < 104; n++) {
                write(w, n);  // fills the current buffer (96..103): no gate to pass before the flush publishes it
            }
            w.flush();
            PipelineStats s = assertTimeoutPreemptively(Duration.ofSeconds(30), p::stop,
                    "stop returns within its bound (two 200 ms backstops) while the hook never returns");
            assertThat(s.stuck()).anyMatch(m -> m.contains("arena-ack hook"));
            assertThat(s.reconciled()).isTrue();
            LaneStats l = s.lanes().get(0);
            assertThat(l.total()).isEqualTo(104);
            assertThat(l.collected()).isEqualTo(checker.delivered(0));
            assertThat(l.collected() + l.droppedStopped()).isEqualTo(104);
            assertThat(l.droppedStopped()).as("records written after the host loop got stuck").isGreaterThanOrEqualTo(4);
            assertThat(checker.problems()).isEmpty();
        } finally {
            release.countDown();
            assertThatCode(p::close).doesNotThrowAnyException();
        }
    }

    @Test
    void stopReturnsAndNamesTheLaneWhenACollectorCallNeverReturns() {
        CountDownLatch release = new CountDownLatch(1);
        SequenceChecker checker = new SequenceChecker(2, 0);
        Collector lane0Wedges = buf -> {
            if (buf.lane() == 0 && buf.seq() == 2) {
                release.await();
            }
            checker.accept(buf);
        };
        PipelineConfig.Builder b = PipelineConfig.builder("stuck-collector").backstop(Duration.ofMillis(200))
                .drainShards(1);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 8, 4));
        b.lane(kind, 0);
        b.lane(kind, 1);
        Pipeline p = Pipeline.start(b.build(), lane0Wedges);
        try {
            for (int lane = 0; lane < 2; lane++) {
                LaneWriter w = p.writer(lane);
                for (int n = 0; n < 30; n++) {
                    write(w, n);
                }
                w.flush();
            }
            PipelineStats s = assertTimeoutPreemptively(Duration.ofSeconds(30), p::stop,
                    "stop returns within its bound (two 200 ms backstops) while a collector call never returns");
            assertThat(s.stuck()).singleElement().asString().startsWith("lane 0:");
            assertThat(s.reconciled()).isTrue();
            LaneStats l0 = s.lanes().get(0);
            assertThat(l0.collected()).isEqualTo(16);  // seqs 0 and 1; seq 2 is held
            assertThat(l0.droppedStopped()).isEqualTo(30 - 16);
            LaneStats l1 = s.lanes().get(1);
            assertThat(l1.collected()).as("the peer lane on the same shard is complete").isEqualTo(30);
            assertThat(l1.dropped()).isZero();
            assertThat(s.slowestCollectorLane()).hasValueSatisfying(l -> assertThat(l.lane()).isZero());
        } finally {
            release.countDown();
            CollectorLane held = p.parts().collectorLanes[0];
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (held.inCallSinceNs() != 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();  // the released call returns; then the region may be freed
            }
            p.close();
        }
        assertThat(checker.problems()).isEmpty();
        // the call stop gave up on returned after stop: the collector got its buffer (seq 2, records 16..23), which
        // the final snapshot counts dropped (stopped), and no call began after it (seq 3, records 24..29)
        assertThat(checker.delivered(0)).isEqualTo(24);
        assertThat(checker.last(0)).isEqualTo(23);
    }

    @Test
    void aLaneClosedByStopPublishesNothingMore() {
        SequenceChecker checker = new SequenceChecker(1, 0);
        PipelineConfig.Builder b = PipelineConfig.builder("after-stop");
        b.lane(b.pool(new PoolSpec("t", SequenceChecker.RECORD, 8, 2)), 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), checker)) {
            LaneWriter w = p.writer(0);
            for (int n = 0; n < 13; n++) {
                write(w, n);
            }
            PipelineStats s = p.stop();  // this thread is the lane's writer: provably not writing; 5 recovered
            assertThat(s.lanes().get(0).collected()).isEqualTo(13);
            assertThat(s.lanes().get(0).droppedStopped()).isZero();
            for (int n = 13; n < 30; n++) {
                write(w, n);  // into the buffer it holds; each publish is refused (dropped, stopped)
            }
            w.flush();
            assertThat(w.claim()).as("the closed lane cannot be attached again").isEqualTo(-1);
            assertThat(checker.delivered(0)).isEqualTo(13);
            assertThat(p.stats()).isSameAs(s);
        }
    }

    private static boolean write(LaneWriter w, long n) {
        long off = w.claim();
        if (off >= 0) {
            SequenceChecker.writeRecord(w.segment(), off, w.lane(), n);
        }
        return off >= 0;
    }
}
