package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The free-queue handshake between the host thread and a producer thread, through the real {@link FreeQueueHost}
 * (writes slots with plain stores, then releases {@code tail}; acquires the producer's {@code head} before computing
 * room) and the real {@link LaneWriter} pop (acquires {@code tail}, reads the slot, releases {@code head}): each lane
 * pops exactly the handles the host pushed into its free queue, each once, in push order, and every record written
 * into the popped buffers arrives once and in lane order ({@link SequenceChecker}). Free queues of 1..4 slots and
 * 1..6 buffers per lane keep the lane waiting at its pop gate and the host's top-ups short.
 *
 * <p>The host thread plays the whole host (sweep, collect, replenish, retry short sites) as a host loop would. After
 * each step it reads back the slots it just released, which only it writes, so its push log is exact.
 */
class FreeQueueHandshakeTest {
    private static final int KIND = 0;
    /** Host rounds after the producer's flush before missing records count as lost (two suffice). */
    private static final int ROUNDS_AFTER_FLUSH = 1_000;

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void eachLanePopsWhatTheHostPushedOnceInOrder(long seed) throws Throwable {
        run(seed, 2_000);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void manyPopsMatchThePushesOnceInOrder(long seed) throws Throwable {
        run(seed, 200_000);
    }

    private static void run(long seed, long recordsPerLane) throws Throwable {
        SplittableRandom root = new SplittableRandom(seed);
        int lanes = 1 + root.nextInt(2);
        int slots = 1 + root.nextInt(4);
        int recordsPerBuffer = 1 + root.nextInt(8);
        int buffersPerLane = 1 + root.nextInt(6);
        MemoryMode mode = root.nextBoolean() ? MemoryMode.SHARED : MemoryMode.COPY;
        PipelineConfig.Builder b = PipelineConfig.builder("free-queue").memoryMode(mode).freeQueueSlots(slots);
        b.pool(new PoolSpec("test", SequenceChecker.RECORD, recordsPerBuffer, buffersPerLane));
        for (int l = 0; l < lanes; l++) {
            b.lane(KIND, 0);
        }
        String what = "free queue seed " + seed + " (" + lanes + " lanes, " + slots + " slots, " + buffersPerLane
                + " buffers/lane, " + recordsPerBuffer + " records/buffer, " + mode + ")";
        SequenceChecker checker = new SequenceChecker(lanes, 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), checker)) {
            PipelineParts parts = p.parts();
            List<List<Long>> pushed = new ArrayList<>();
            List<List<Long>> popped = new ArrayList<>();
            long[] loggedTail = new long[lanes];
            for (int l = 0; l < lanes; l++) {
                pushed.add(new ArrayList<>());
                popped.add(new ArrayList<>());
                logPushes(p, l, slots, loggedTail, pushed.get(l));  // the startup fill
            }
            SplittableRandom producerRnd = root.split();
            AtomicBoolean produced = new AtomicBoolean();
            Race race = new Race();
            race.run(Duration.ofSeconds(60), what, () -> {
                long[] written = new long[lanes];
                for (long left = recordsPerLane * lanes; left > 0; left--) {
                    int l = producerRnd.nextInt(lanes);
                    if (written[l] == recordsPerLane) {
                        l = (l + 1) % lanes;  // lanes == 2 here: the other one is not done yet
                    }
                    LaneWriter w = p.writer(l);
                    long off = w.claim();
                    if (off == 0) {  // a buffer was popped (the lane's own field, so a plain read is exact)
                        popped.get(l).add(ManualHost.laneField(p, l, RegionLayout.L_CURRENT));
                    }
                    if (off >= 0) {
                        SequenceChecker.writeRecord(w.segment(), off, l, written[l]);
                    }
                    written[l]++;
                }
                for (int l = 0; l < lanes; l++) {
                    p.writer(l).flush();
                }
                produced.set(true);
            }, () -> {
                for (DrainShard s : parts.shards) {
                    s.bindToCurrentThread();
                }
                // After the producer flushed, a few rounds deliver the rest; records still missing then are lost
                // (the checks below say which), so the host stops instead of waiting for them until the deadline.
                int after = 0;
                for (int a = 0; !allDelivered(checker, lanes, recordsPerLane) && after < ROUNDS_AFTER_FLUSH; a++) {
                    if (produced.get()) {
                        after++;
                    }
                    ManualHost.round(p);
                    for (int l = 0; l < lanes; l++) {
                        logPushes(p, l, slots, loggedTail, pushed.get(l));
                    }
                    race.await(a);
                }
            });
            assertThat(parts.errors.messages()).as(what).isEmpty();
            assertThat(checker.problems()).as(what).isEmpty();
            for (int l = 0; l < lanes; l++) {
                List<Long> pops = popped.get(l);
                List<Long> pushes = pushed.get(l);
                assertThat(pops.size()).as("%s lane %d: pops", what, l).isLessThanOrEqualTo(pushes.size());
                assertThat(pops).as("%s lane %d: handles popped, in order", what, l)
                        .isEqualTo(pushes.subList(0, pops.size()));
                assertThat(pushes.size() - pops.size()).as("%s lane %d: handles still queued", what, l)
                        .isEqualTo(ManualHost.freeTail(p, l) - ManualHost.freeHead(p, l));
                assertThat(checker.delivered(l)).isEqualTo(recordsPerLane);
                assertThat(ManualHost.laneField(p, l, RegionLayout.L_DROPPED)).as("dropped").isZero();
            }
        }
    }

    private static boolean allDelivered(SequenceChecker checker, int lanes, long recordsPerLane) {
        for (int l = 0; l < lanes; l++) {
            if (checker.delivered(l) < recordsPerLane) {
                return false;
            }
        }
        return true;
    }

    /** Host thread: appends the handles released into a lane's free queue since the last call, in slot order. */
    private static void logPushes(Pipeline p, int lane, int slots, long[] loggedTail, List<Long> log) {
        long tail = ManualHost.freeTail(p, lane);
        for (long c = loggedTail[lane]; c < tail; c++) {
            log.add(ManualHost.laneField(p, lane, RegionLayout.L_FQ_SLOTS + 8 * (c % slots)));
        }
        loggedTail[lane] = tail;
    }
}
