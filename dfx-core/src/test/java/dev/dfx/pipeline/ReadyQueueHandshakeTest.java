package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ready-queue handshake between a producer thread and a host thread, through the real {@link ProducerQueue}
 * (writes the 32-byte entry with plain stores, then releases {@code tail}) and the real {@link DrainShard} (acquires
 * {@code tail}, reads the entry, releases {@code head}, hands the buffer to its lane's collector ring): every entry arrives
 * exactly once, in per-lane seq order, with the lane, kind, handle and count the producer wrote, and with the records
 * the producer wrote into the buffer before the push. Ready queues of 2..5 entries (one sacrificed) wrap often and
 * run full, so the producer waits at {@link ProducerQueue#ready()} for the host's head; SHARED and COPY.
 *
 * <p>The test plays the rest of the pipeline itself: the producer owns every buffer at the start (all of them sit in
 * the free queues, which no {@link LaneWriter} pops here) and the host thread, as the lanes' collector (the real
 * {@link CollectorLane}s, polled on that thread), lends each drained buffer straight back to the lane that published
 * it, through a queue of the test's own, so only the ready queue is under test.
 */
class ReadyQueueHandshakeTest {
    private static final int KIND = 0;
    private static final int RECORDS_PER_BUFFER = 8;
    private static final int SLOTS = 4;
    /** Host sweeps after the producer's last push before missing entries count as lost (one suffices). */
    private static final int SWEEPS_AFTER_LAST_PUSH = 1_000;
    /** Empty sweeps between looks at the host's errors while waiting for entries. */
    private static final int ERROR_CHECK_PERIOD = 256;

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void everyEntryArrivesOnceInOrderWithItsRecords(long seed) throws Throwable {
        run(seed, 800);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void manyEntriesArriveOnceInOrderWithTheirRecords(long seed) throws Throwable {
        run(seed, 100_000);
    }

    /** Records in the buffer of a lane's {@code seq}-th entry: 1..RECORDS_PER_BUFFER, known to both sides. */
    static int countOf(int lane, long seq) {
        return 1 + (int) Math.floorMod(seq * 0x9E3779B97F4A7C15L + lane, (long) RECORDS_PER_BUFFER);
    }

    private static void run(long seed, long entries) throws Throwable {
        SplittableRandom root = new SplittableRandom(seed);
        int lanes = 1 + root.nextInt(3);
        int readyQueueSize = 2 + root.nextInt(4);
        MemoryMode mode = root.nextBoolean() ? MemoryMode.SHARED : MemoryMode.COPY;
        PipelineConfig.Builder b = PipelineConfig.builder("ready-queue").memoryMode(mode)
                .readyQueueSize(readyQueueSize).freeQueueSlots(SLOTS);
        b.pool(new PoolSpec("test", SequenceChecker.RECORD, RECORDS_PER_BUFFER, SLOTS));
        for (int l = 0; l < lanes; l++) {
            b.lane(KIND, 0);
        }
        String what = "ready queue seed " + seed + " (" + lanes + " lanes, " + readyQueueSize + " entries, " + mode
                + ")";
        List<ArrayBlockingQueue<Long>> owned = new ArrayList<>();
        long[] received = new long[lanes];
        long[] done = new long[1];
        // The real collector lanes deliver on the host thread (pollOnce), so this runs there: plain state is right.
        Collector lendBack = d -> {
            HostBuffer buf = (HostBuffer) d;
            check(buf, lanes, received);
            buf.holder = buf.lane;  // lent to its lane again, as its free queue's push would
            owned.get(buf.lane).add(buf.handle);
            done[0]++;
        };
        try (Pipeline p = ManualHost.unstarted(b.build(), lendBack)) {
            PipelineParts parts = p.parts();
            for (CollectorLane c : parts.collectorLanes) {
                c.replenisherStopped();  // no replenisher here: a delivered buffer is set aside, not queued
            }
            for (int l = 0; l < lanes; l++) {
                owned.add(new ArrayBlockingQueue<>(SLOTS));
                for (int i = 0; i < SLOTS; i++) {
                    owned.get(l).add(ManualHost.laneField(p, l, RegionLayout.L_FQ_SLOTS + 8L * i));
                }
            }
            SplittableRandom producerRnd = root.split();
            AtomicBoolean produced = new AtomicBoolean();
            Race race = new Race();
            race.run(Duration.ofSeconds(60), what, () -> {
                ProducerQueue queue = parts.producerQueues[0];
                long[] seq = new long[lanes];
                for (long e = 0; e < entries; e++) {
                    int lane = producerRnd.nextInt(lanes);
                    Long handle;
                    for (int a = 0; (handle = owned.get(lane).poll()) == null; a++) {
                        race.await(a);
                    }
                    MemorySegment buffer = parts.store.device(handle, KIND);
                    long s = seq[lane]++;
                    int count = countOf(lane, s);
                    for (int i = 0; i < count; i++) {
                        SequenceChecker.writeRecord(buffer, (long) i * SequenceChecker.RECORD, lane,
                                s * RECORDS_PER_BUFFER + i);
                    }
                    for (int a = 0; !queue.ready(); a++) {
                        race.await(a);
                    }
                    queue.push(lane, KIND, handle, s, count);
                }
                produced.set(true);
            }, () -> {
                DrainShard shard = parts.shards[0];
                shard.bindToCurrentThread();
                // After the producer's last push, a few sweeps take the rest; entries still missing then are lost.
                int after = 0;
                for (int a = 0; done[0] < entries && after < SWEEPS_AFTER_LAST_PUSH; a++) {
                    if (produced.get()) {
                        after++;
                    }
                    shard.sweep();
                    for (CollectorLane c : parts.collectorLanes) {
                        while (c.pollOnce()) {
                            a = 0;
                        }
                    }
                    if (a % ERROR_CHECK_PERIOD == ERROR_CHECK_PERIOD - 1 && !parts.errors.messages().isEmpty()) {
                        // a quarantined queue is never drained again: fail now, not at the deadline
                        throw new AssertionError(what + ": the host rejected the queue: " + parts.errors.messages());
                    }
                    race.await(a);
                }
            });
            assertThat(parts.errors.messages()).as(what).isEmpty();
            assertThat(LongStream.of(received).sum()).as(what).isEqualTo(entries);
            parts.shards[0].startFinalPass();
            assertThat(parts.shards[0].finalPassDone()).as("nothing left in the ready queue").isTrue();
            for (CollectorLane c : parts.collectorLanes) {
                assertThat(c.backlog()).as("lane %d's collector ring", c.lane()).isZero();
            }
        }
    }

    /** Host side: the entry and the records of one drained buffer, against what the producer wrote for it. */
    private static void check(HostBuffer b, int lanes, long[] received) {
        if (b.lane < 0 || b.lane >= lanes || b.kind != KIND) {
            throw new AssertionError("entry of lane " + b.lane + " kind " + b.kind + ": not an entry the producer wrote");
        }
        long seq = received[b.lane]++;
        if (b.seq != seq || b.count != countOf(b.lane, seq)) {
            throw new AssertionError("lane " + b.lane + ": entry seq " + b.seq + " count " + b.count + ", expected seq "
                    + seq + " count " + countOf(b.lane, seq) + " (lost, duplicated or torn entry)");
        }
        MemorySegment r = b.records();
        for (int i = 0; i < b.count; i++) {
            long off = (long) i * SequenceChecker.RECORD;
            long n = seq * RECORDS_PER_BUFFER + i;
            if (r.get(Mem.LONG, off) != n || r.get(Mem.LONG, off + 8) != b.lane
                    || r.get(Mem.LONG, off + 16) != n * 31 + b.lane || r.get(Mem.LONG, off + 24) != ~n) {
                throw new AssertionError("lane " + b.lane + " seq " + seq + " record " + i
                        + ": not the record the producer wrote before the push (n=" + r.get(Mem.LONG, off) + ")");
            }
        }
    }
}
