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
 * The collector claim, through a real {@link CollectorPool} of 2..4 workers serving 1..3 real {@link CollectorShard}s:
 * at most one worker at a time is inside the collector for a shard (the claim's CAS), and the consumer side of the
 * shard's collector ring and the producer side of its done queue move from worker to worker with a happens-before
 * edge (the claim's acquire and release), so every buffer reaches the collector exactly once, in ring order, and
 * comes back through the done queue exactly once, in the same order. The collector keeps its per-shard expected seq
 * in a plain field, which is right only if each holder sees its predecessor's writes.
 *
 * <p>One feeder thread per shard plays its drain shard (offers, then rings the pool); one thread plays the
 * replenisher (empties the done queues). Rings of 1..16 slots keep the feeders waiting for room and the workers'
 * hand-backs waiting at a full done queue. With some seeds the feeders also call {@link CollectorPool#checkWedged()}
 * with a zero wedge threshold, so spare workers start (and probe the claim) while the core workers hold it.
 */
class CollectorClaimTest {
    private static final int KIND = 0;

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void oneWorkerAtATimeServesAShardAndHandsItOn(long seed) throws Throwable {
        run(seed, 800);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void manyHandOffsKeepOneWorkerPerShardAndRingOrder(long seed) throws Throwable {
        run(seed, 100_000);
    }

    /** Checks, per shard (= lane here), that calls never overlap and that seqs arrive 0, 1, 2, ... */
    static final class ClaimChecker implements Collector {
        private final AtomicIntegerArray inCall;
        /** Written only inside calls, under the claim: plain on purpose. */
        private final long[] next;
        private final List<String> problems = Collections.synchronizedList(new ArrayList<>());

        ClaimChecker(int shards) {
            inCall = new AtomicIntegerArray(shards);
            next = new long[shards];
        }

        @Override
        public void accept(DrainedBuffer b) {
            int s = b.lane();
            if (inCall.incrementAndGet(s) != 1) {
                problems.add("shard " + s + ": two workers inside the collector at seq " + b.seq());
            }
            if (b.seq() != next[s]) {
                problems.add("shard " + s + ": seq " + b.seq() + " delivered, expected " + next[s]);
            }
            next[s] = b.seq() + 1;
            int work = (int) (b.seq() * 0x9E3779B97F4A7C15L >>> 58);  // 0..63: calls of varied length
            for (int i = 0; i < work; i++) {
                Thread.onSpinWait();
            }
            inCall.decrementAndGet(s);
        }
    }

    private static void run(long seed, long buffersPerShard) throws Throwable {
        SplittableRandom root = new SplittableRandom(seed);
        int shards = 1 + root.nextInt(3);
        int workers = 2 + root.nextInt(3);
        int ringSlots = 1 << root.nextInt(5);
        boolean spares = root.nextBoolean();
        String what = "collector claim seed " + seed + " (" + shards + " shards, " + workers + " workers, "
                + ringSlots + "-slot rings" + (spares ? ", spares" : "") + ")";
        ClaimChecker checker = new ClaimChecker(shards);
        HostLedger ledger = new HostLedger(shards);
        ErrorLog errors = new ErrorLog();
        RecycleMeter meter = new RecycleMeter(1, shards, lane -> 0);
        Doorbell none = () -> { };
        List<SpscRing<HostBuffer>> ready = new ArrayList<>();
        List<SpscRing<HostBuffer>> done = new ArrayList<>();
        List<CollectorShard> attached = new ArrayList<>();
        CollectorPool pool = new CollectorPool(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        }, "claim-test", spares ? 0 : Long.MAX_VALUE);
        try {
            for (int w = 0; w < workers; w++) {
                pool.startWorker();
            }
            for (int s = 0; s < shards; s++) {
                ready.add(new SpscRing<>(ringSlots));
                done.add(new SpscRing<>(ringSlots));
                attached.add(new CollectorShard(s, ready.get(s), done.get(s), checker, ledger, meter, null,
                        new boolean[] {false}, none, none, errors));
                pool.attach(attached.get(s));
            }
            Race race = new Race();
            Race.Actor[] actors = new Race.Actor[shards + 1];
            for (int s = 0; s < shards; s++) {
                int shard = s;
                SplittableRandom rnd = root.split();
                actors[s] = () -> {
                    SpscRing<HostBuffer> ring = ready.get(shard);
                    for (long seq = 0; seq < buffersPerShard; seq++) {
                        HostBuffer b = new HostBuffer(KIND, seq, 8, MemorySegment.NULL, MemorySegment.NULL);
                        b.carry(shard, shard, seq, 1, shard);
                        for (int a = 0; !ring.offer(b); a++) {
                            race.await(a);
                        }
                        pool.wake();
                        if (spares && rnd.nextInt(16) == 0) {
                            pool.checkWedged();
                        }
                    }
                };
            }
            actors[shards] = () -> {
                long[] next = new long[shards];
                long left = buffersPerShard * shards;
                for (int a = 0; left > 0; a++) {
                    for (int s = 0; s < shards; s++) {
                        HostBuffer b;
                        while ((b = done.get(s).poll()) != null) {
                            if (b.lane != s || b.seq != next[s]) {
                                throw new AssertionError("done queue of shard " + s + ": lane " + b.lane + " seq "
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
            for (CollectorShard s : attached) {
                s.replenisherStopped();
            }
            pool.stop();
        }
        assertThat(checker.problems).as(what).isEmpty();
        assertThat(errors.messages()).as(what).isEmpty();
        for (int s = 0; s < shards; s++) {
            assertThat(ledger.collected(s)).as("%s: shard %d records collected", what, s).isEqualTo(buffersPerShard);
            assertThat(ready.get(s).isEmpty()).isTrue();
            assertThat(done.get(s).isEmpty()).isTrue();
        }
    }
}
