package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pipelines sharing one {@link HostGroup}: every record still arrives exactly once and in lane order, the group runs
 * on its own few threads, only the owning loop writes a free queue, one pipeline stops while the others go on, and a
 * wedged collector of one pipeline does not stop another's lanes (the pool starts a spare worker).
 */
class HostGroupTest {

    private static Pipeline start(HostGroup group, String name, int producers, int lanesPerProducer, int shards,
            int recordsPerBuffer, int buffersPerLane, MemoryMode mode, Collector c) {
        PipelineConfig.Builder b = PipelineConfig.builder(name).memoryMode(mode).drainShards(shards);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, recordsPerBuffer, buffersPerLane));
        for (int q = 0; q < producers; q++) {
            for (int i = 0; i < lanesPerProducer; i++) {
                b.lane(kind, q);
            }
        }
        return Pipeline.start(b.build(), c, group);
    }

    private static List<String> liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(n -> n.startsWith(prefix))
                .sorted().toList();
    }

    private static void assertExactlyOnce(PipelineStats s, SequenceChecker checker, long perLane) {
        assertThat(checker.problems()).isEmpty();
        assertThat(s.errors()).isEmpty();
        for (LaneStats l : s.lanes()) {
            assertThat(l.total()).isEqualTo(perLane);
            assertThat(l.dropped()).isZero();
            assertThat(checker.delivered(l.lane())).isEqualTo(perLane);
            assertThat(checker.last(l.lane())).isEqualTo(perLane - 1);
            assertThat(checker.gaps(l.lane())).isZero();
        }
        assertThat(s.reconciled()).isTrue();
    }

    @Test
    void threePipelinesOnOneLoopAndOneWorkerDeliverExactlyOnce() throws Exception {
        threePipelines(100_000);
    }

    @Tag("stress")
    @Test
    void millionsOfRecordsOfThreePipelinesOnOneLoopArriveOnceInLaneOrder() throws Exception {
        threePipelines(1_000_000);
    }

    private static void threePipelines(long perLane) throws Exception {
        SequenceChecker[] checkers = {new SequenceChecker(4, 0), new SequenceChecker(4, 20_000),
                new SequenceChecker(3, 0)};
        try (HostGroup group = HostGroup.builder("g3").build()) {
            List<Pipeline> ps = List.of(
                    start(group, "a", 2, 2, 2, 64, 1, MemoryMode.SHARED, checkers[0]),
                    start(group, "b", 4, 1, 1, 100, 2, MemoryMode.COPY, checkers[1]),
                    start(group, "c", 3, 1, 3, 128, 4, MemoryMode.SHARED, checkers[2]));
            assertThat(group.pipelines()).isEqualTo(3);
            assertThat(liveThreads("dfx-g3-")).containsExactly("dfx-g3-collect-0", "dfx-g3-host-0");
            List<Thread> runs = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int i = 0; i < ps.size(); i++) {
                Pipeline p = ps.get(i);
                long seed = 7 + i;
                Thread t = new Thread(() -> {
                    try {
                        TestProducers.run(p, perLane, seed);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                runs.add(t);
                t.start();
            }
            for (Thread t : runs) {
                t.join();
            }
            assertThat(failures).isEmpty();
            for (int i = 0; i < ps.size(); i++) {
                PipelineStats s = ps.get(i).stop();
                assertExactlyOnce(s, checkers[i], perLane);
                for (FreeQueueHost fq : ps.get(i).parts().freeQueues) {
                    assertThat(fq.ownerWrites()).as("refills by the loop that owns lane %d", fq.lane()).isPositive();
                    assertThat(fq.foreignWrites()).as("foreign writes to lane %d", fq.lane()).isZero();
                }
                ps.get(i).close();
            }
            assertThat(group.pipelines()).isZero();
        }
        assertThat(liveThreads("dfx-g3-")).as("close ends the group's threads").isEmpty();
    }

    @Test
    void onePipelineStopsWhileAnotherGoesOn() throws Exception {
        SequenceChecker first = new SequenceChecker(1, 0);
        SequenceChecker second = new SequenceChecker(1, 0);
        try (HostGroup group = HostGroup.builder("g2").build()) {
            Pipeline a = start(group, "a", 1, 1, 1, 50, 2, MemoryMode.SHARED, first);
            Pipeline b = start(group, "b", 1, 1, 1, 50, 2, MemoryMode.SHARED, second);
            TestProducers.run(a, 10_000, 1);
            assertExactlyOnce(a.stop(), first, 10_000);
            a.close();
            TestProducers.run(b, 30_000, 2);  // b's records all travel after a left the group
            assertExactlyOnce(b.stop(), second, 30_000);
            b.close();
        }
    }

    @Test
    void aWedgedCollectorHoldsBackOnlyItsOwnPipeline() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        SequenceChecker wedgedChecker = new SequenceChecker(1, 0);
        SequenceChecker peerChecker = new SequenceChecker(1, 0);
        Collector wedged = buf -> {
            release.await();
            wedgedChecker.accept(buf);
        };
        try (HostGroup group = HostGroup.builder("wedge").wedgeThreshold(Duration.ofMillis(20)).build()) {
            Pipeline a = start(group, "a", 1, 1, 1, 64, 4, MemoryMode.SHARED, wedged);
            Pipeline b = start(group, "b", 1, 1, 1, 64, 4, MemoryMode.SHARED, peerChecker);
            AtomicBoolean running = new AtomicBoolean(true);
            long[] written = new long[2];
            List<Thread> producers = new ArrayList<>();
            for (Pipeline p : List.of(a, b)) {
                int i = producers.size();
                LaneWriter w = p.writer(0);
                Thread t = new Thread(() -> {
                    while (running.get()) {
                        long off = w.claim();
                        if (off >= 0) {
                            SequenceChecker.writeRecord(w.segment(), off, 0, written[i]);
                        }
                        written[i]++;
                        Thread.onSpinWait();
                    }
                    w.flush();
                });
                producers.add(t);
                t.start();
            }
            Thread.sleep(100);  // a's only worker is now inside the wedged call, and a's lane waits at its gates
            // The peer must keep delivering while a's worker is wedged: wait for five successive increases of its
            // collected count (each bounded by a generous deadline, so a loaded machine slows the test, not fails it).
            long peerSeen = b.stats().lanes().get(0).collected();
            int peerIncreases = 0;
            long peerDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (peerIncreases < 5 && System.nanoTime() < peerDeadline) {
                Thread.sleep(5);
                long now = b.stats().lanes().get(0).collected();
                if (now > peerSeen) {
                    peerIncreases++;
                    peerSeen = now;
                }
            }
            int workersDuringWedge = group.collectorWorkers();
            long wedgedCollected = a.stats().lanes().get(0).collected();
            release.countDown();
            Thread.sleep(50);
            running.set(false);
            for (Thread t : producers) {
                t.join();
            }
            PipelineStats sa = a.stop();
            PipelineStats sb = b.stop();

            assertThat(peerIncreases).as("the peer pipeline keeps delivering during the wedge").isEqualTo(5);
            assertThat(workersDuringWedge).as("a spare worker serves the peer").isEqualTo(2);
            assertThat(wedgedCollected).as("the wedged pipeline delivers nothing meanwhile").isZero();
            assertExactlyOnce(sa, wedgedChecker, written[0]);
            assertExactlyOnce(sb, peerChecker, written[1]);
            assertThat(sa.lanes().get(0).stallCount()).as("the wedged lane waited at its gates").isPositive();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (group.collectorWorkers() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(group.collectorWorkers()).as("the spare retires once idle").isEqualTo(1);
            a.close();
            b.close();
        }
    }
}
