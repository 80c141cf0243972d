package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The collector claim, through a real {@link CollectorPool} of 2..4 workers serving 1..3 real {@link CollectorLane}s:
 * at most one worker at a time is inside the collector for a lane (the claim's CAS), and the consumer side of the
 * lane's collector ring and the producer side of its done queue move from worker to worker with a happens-before
 * edge (the claim's acquire and release), so every buffer reaches the collector exactly once, in ring order, and
 * comes back through the done queue exactly once, in the same order. The collector keeps its per-lane expected seq
 * in a plain field, which is right only if each holder sees its predecessor's writes.
 *
 * <p>One feeder thread per lane plays its drain shard (hands in, then rings the pool); one thread plays the
 * replenisher (empties the done queues). Lanes of 1..16 buffers (rings of 21..66 slots) keep the feeders waiting for
 * room and the workers' hand-backs waiting at a full done queue. With some seeds the feeders also call {@link CollectorPool#checkWedged()}
 * with a zero wedge threshold, so spare workers start (and probe the claim) while the core workers hold it.
 */
class CollectorClaimTest {
    private static final int KIND = 0;

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void oneWorkerAtATimeServesALaneAndHandsItOn(long seed) throws Throwable {
        run(seed, 800);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void manyHandOffsKeepOneWorkerPerLaneAndRingOrder(long seed) throws Throwable {
        run(seed, 100_000);
    }

    /** Checks, per lane, that calls never overlap and that seqs arrive 0, 1, 2, ... */
    static final class ClaimChecker implements Collector {
        private final AtomicIntegerArray inCall;
        /** Written only inside calls, under the claim: plain on purpose. */
        private final long[] next;
        private final List<String> problems = Collections.synchronizedList(new ArrayList<>());

        ClaimChecker(int lanes) {
            inCall = new AtomicIntegerArray(lanes);
            next = new long[lanes];
        }

        @Override
        public void accept(DrainedBuffer b) {
            int s = b.lane();
            if (inCall.incrementAndGet(s) != 1) {
                problems.add("lane " + s + ": two workers inside the collector at seq " + b.seq());
            }
            if (b.seq() != next[s]) {
                problems.add("lane " + s + ": seq " + b.seq() + " delivered, expected " + next[s]);
            }
            next[s] = b.seq() + 1;
            int work = (int) (b.seq() * 0x9E3779B97F4A7C15L >>> 58);  // 0..63: calls of varied length
            for (int i = 0; i < work; i++) {
                Thread.onSpinWait();
            }
            inCall.decrementAndGet(s);
        }
    }

    private static void run(long seed, long buffersEach) throws Throwable {
        SplittableRandom root = new SplittableRandom(seed);
        int lanes = 1 + root.nextInt(3);
        int workers = 2 + root.nextInt(3);
        int buffersPerLane = 1 << root.nextInt(5);
        boolean spares = root.nextBoolean();
        String what = "collector claim seed " + seed + " (" + lanes + " lanes, " + workers + " workers, "
                + buffersPerLane + " buffers per lane" + (spares ? ", spares" : "") + ")";
        ClaimChecker checker = new ClaimChecker(lanes);
        HostLedger ledger = new HostLedger(lanes, PipelineConfig.DEFAULT_MAX_DROP_WINDOWS);
        ErrorLog errors = new ErrorLog();
        RecycleMeter meter = new RecycleMeter(1, lanes, lane -> 0);
        Doorbell none = () -> { };
        CollectorLane[] attached = new CollectorLane[lanes];
        CollectorPool pool = new CollectorPool(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        }, "claim-test", spares ? 0 : Long.MAX_VALUE);
        try {
            for (int w = 0; w < workers; w++) {
                pool.startWorker();
            }
            for (int s = 0; s < lanes; s++) {
                attached[s] = new CollectorLane(s, buffersPerLane, checker, ledger, meter, null, false, none, none,
                        none, errors);
            }
            pool.attach(attached);
            Race race = new Race();
            Race.Actor[] actors = new Race.Actor[lanes + 1];
            for (int s = 0; s < lanes; s++) {
                int l = s;
                SplittableRandom rnd = root.split();
                actors[s] = () -> {
                    CollectorLane c = attached[l];
                    for (long seq = 0; seq < buffersEach; seq++) {
                        HostBuffer b = new HostBuffer(KIND, seq, 8, MemorySegment.NULL, MemorySegment.NULL);
                        b.carry(l, l, seq, 1, 0);
                        for (int a = 0; !c.handIn(b); a++) {  // the ring is full: wait for room
                            race.await(a);
                        }
                        pool.wake();
                        if (spares && rnd.nextInt(16) == 0) {
                            pool.checkWedged();
                        }
                    }
                };
            }
            actors[lanes] = () -> {
                long[] next = new long[lanes];
                long left = buffersEach * lanes;
                for (int a = 0; left > 0; a++) {
                    for (int s = 0; s < lanes; s++) {
                        HostBuffer b;
                        while ((b = attached[s].done().poll()) != null) {
                            if (b.lane != s || b.seq != next[s]) {
                                throw new AssertionError("done queue of lane " + s + ": lane " + b.lane + " seq "
                                        + b.seq + ", expected seq " + next[s] + " (lost, duplicated or reordered)");
                            }
                            next[s]++;
                            left--;
                            a = 0;
                        }
                    }
                    race.await(a);
                }
            };
            race.run(Duration.ofSeconds(60), what, actors);
        } finally {
            // The pipeline's stop order: the replenisher is gone, so a worker whose done queue is full parks the
            // buffer instead of waiting for room (after a failed race nobody empties the done queues).
            for (CollectorLane c : attached) {
                if (c != null) {
                    c.replenisherStopped();
                }
            }
            pool.stop(System.nanoTime() + Duration.ofSeconds(10).toNanos());
        }
        assertThat(checker.problems).as(what).isEmpty();
        assertThat(errors.messages()).as(what).isEmpty();
        for (int s = 0; s < lanes; s++) {
            assertThat(ledger.collected(s)).as("%s: lane %d records collected", what, s).isEqualTo(buffersEach);
            assertThat(attached[s].backlog()).isZero();
            assertThat(attached[s].done().isEmpty()).isTrue();
        }
    }
}
