package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.LaneStats;
import dev.dfx.pipeline.MemoryMode;
import dev.dfx.pipeline.RegionLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A C program writing through {@code include/dfx.h} into a region another process (this JVM) hosts: several
 * threads, sequence-numbered records, checked record by record against the numbers the program wrote.
 */
class RegionProducerTest {
    @TempDir
    Path dir;

    private RegionHost start(RegionSpec spec, SequenceCollector c) {
        RegionHost h = RegionHost.start(dir.resolve("region.dfxr"), spec, c);
        c.host(h);
        return h;
    }

    @ParameterizedTest
    @EnumSource(MemoryMode.class)
    void blockDeliversEveryRecordOnceInLaneOrderWithOneBufferPerLaneAndASlowCollector(MemoryMode mode)
            throws Exception {
        exactlyOnce(mode, 4, 20_000, 100);
    }

    @ParameterizedTest
    @EnumSource(MemoryMode.class)
    @Tag("stress")
    void manyThreadsMillionsOfRecordsExactlyOnce(MemoryMode mode) throws Exception {
        exactlyOnce(mode, 16, 500_000, 0);
    }

    private void exactlyOnce(MemoryMode mode, int threads, int events, long collectorMicros) throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(64, 1, threads * 2).memoryMode(mode).build();
        SequenceCollector c = new SequenceCollector(true, collectorMicros);
        try (RegionHost host = start(spec, c)) {
            CProducer.Run run = CProducer.start(host.file(), dir, "" + threads, "" + events, "names");
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            assertThat(run.stdout()).isEqualTo("done enabled=1\n");
            RegionStats s = host.stop();

            assertThat(c.problems()).isEmpty();
            assertThat(s.reconciled()).isTrue();
            List<RegionLane> used = s.lanes().stream().filter(l -> l.state() != LaneState.UNUSED).toList();
            assertThat(used).hasSize(threads);
            assertThat(used).allSatisfy(l -> {
                assertThat(l.state()).isEqualTo(LaneState.CLOSED);
                assertThat(l.pid()).isEqualTo(run.process().pid());
                assertThat(l.stats().total()).isEqualTo(events);
                assertThat(l.stats().collected()).isEqualTo(events);
                assertThat(l.stats().dropped()).isZero();
                assertThat(c.count(l.lane())).isEqualTo(events);
            });
            assertThat(used.stream().map(l -> c.thread(l.lane())).sorted().toList())
                    .isEqualTo(java.util.stream.LongStream.range(0, threads).boxed().toList());
            for (RegionLane l : used) {
                long t = c.thread(l.lane());
                String name = t == 0 ? "region_producer" // main keeps the process's name (15 bytes of it)
                        : t % 3 == 1 ? "os-" + t : t % 3 == 2 ? "dfx-" + t : "late-" + t; // see region_producer.c
                assertThat(l.name()).as("lane %d, thread %d", l.lane(), t).isEqualTo(name);
                stallWindowsMatchTheCounters(l.stats());
            }
            assertThat(s.processes()).singleElement().satisfies(p -> {
                assertThat(p.pid()).isEqualTo(run.process().pid());
                assertThat(p.alive()).isFalse();
                assertThat(p.detached()).isTrue();
                assertThat(p.collected()).isEqualTo((long) threads * events);
            });
            assertThat(s.unlanedDropped()).isZero();
        }
    }

    /**
     * Each stall the producer counted has its window (one buffer per lane: the host copies a lane's ring before each
     * of its buffers, and a lane stalls at most twice per buffer, so none is overwritten unread), and the windows
     * sum to the counted stall time exactly, since the producer sums the same end - start.
     */
    private static void stallWindowsMatchTheCounters(LaneStats st) {
        assertThat(st.stallWindowsOmitted()).isZero();
        assertThat((long) st.stallWindows().size()).isEqualTo(st.stallCount());
        long sum = 0;
        long longest = 0;
        long previousEnd = Long.MIN_VALUE;
        for (dev.dfx.pipeline.StallWindow w : st.stallWindows()) {
            long d = w.endNs() - w.startNs();
            assertThat(d).as("a stall is a wait longer than the threshold")
                    .isGreaterThan(dev.dfx.pipeline.PipelineConfig.DEFAULT_STALL_THRESHOLD.toNanos());
            assertThat(w.startNs()).as("a thread waits at one gate at a time").isGreaterThanOrEqualTo(previousEnd);
            previousEnd = w.endNs();
            sum += d;
            longest = Math.max(longest, d);
        }
        assertThat(sum).isEqualTo(st.stallTotalNs());
        assertThat(longest).isEqualTo(st.stallLongestNs());
    }

    @Test
    void aForkedChildIsAProcessOfItsOwnFromTheForkEvenIfItWritesNothing() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 8).build();
        SequenceCollector c = new SequenceCollector(true, 0);
        try (RegionHost host = start(spec, c)) {
            CProducer.Run run = CProducer.start(host.file(), dir, "1", "100", "forkquiet");
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            RegionStats s = host.stop();
            assertThat(s.reconciled()).isTrue();
            assertThat(s.processes()).hasSize(2);
            RegionProcess child = s.processes().stream().filter(p -> p.pid() != run.process().pid()).findFirst()
                    .orElseThrow();
            assertThat(child.lanes()).isEmpty();
            assertThat(child.detached()).as("its exit hook ran as its own process's").isTrue();
            assertThat(child.alive()).isFalse();
        }
    }

    @Test
    void aForkedChildRecordsOnLanesOfItsOwn() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 8).build();
        SequenceCollector c = new SequenceCollector(true, 0);
        try (RegionHost host = start(spec, c)) {
            CProducer.Run run = CProducer.start(host.file(), dir, "2", "5000", "fork");
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            RegionStats s = host.stop();
            assertThat(c.problems()).isEmpty();
            assertThat(s.reconciled()).isTrue();
            assertThat(s.processes()).hasSize(2);
            RegionProcess parent = s.processes().stream().filter(p -> p.pid() == run.process().pid()).findFirst()
                    .orElseThrow();
            RegionProcess child = s.processes().stream().filter(p -> p.pid() != run.process().pid()).findFirst()
                    .orElseThrow();
            assertThat(parent.lanes()).hasSize(2);
            assertThat(parent.detached()).isTrue();
            assertThat(child.lanes()).singleElement().satisfies(l -> {
                assertThat(c.thread(l)).isEqualTo(100);
                assertThat(c.count(l)).isEqualTo(5000);
            });
            assertThat(child.detached()).isTrue();
            assertThat(s.lanes(LaneState.CLOSED)).hasSize(3);
        }
    }

    @Test
    void dropCountsEveryLostRecordAndReconciles() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(32, 1, 4).policy(BackpressurePolicy.DROP).build();
        SequenceCollector c = new SequenceCollector(false, 2000);
        try (RegionHost host = start(spec, c)) {
            CProducer.Run run = CProducer.start(host.file(), dir, "2", "50000");
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            RegionStats s = host.stop();
            assertThat(c.problems()).isEmpty();
            assertThat(s.reconciled()).isTrue();
            for (RegionLane l : s.lanes(LaneState.CLOSED)) {
                LaneStats st = l.stats();
                assertThat(st.total()).isEqualTo(50_000);
                assertThat(st.collected()).isEqualTo(c.count(l.lane()));
                assertThat(st.collected() + st.dropped()).isEqualTo(st.total());
                assertThat(st.dropped()).as("a 2 ms collector against one 32-record buffer drops").isPositive();
                assertThat(st.droppedPushGate() + st.droppedPopGate()).isEqualTo(st.dropped());
            }
            assertThat(s.lanes(LaneState.CLOSED)).hasSize(2);
        }
    }

    @Test
    void aDropPoolLosesAndReconcilesWhileABlockPoolOfTheSameRegionLosesNothing() throws Exception {
        int events = 20_000;
        // pool 0 BLOCK, pool 1 DROP; one 32-record buffer per lane against a 1 ms collector: the DROP pool loses
        RegionSpec spec = RegionSpec.builder().userPool(32, 1, 2)
                .pool(new dev.dfx.pipeline.PoolSpec("sampled", UserEvent.BYTES, 32, 1), 2, BackpressurePolicy.DROP)
                .build();
        SequenceCollector c = new SequenceCollector(false, 1000);
        try (RegionHost host = start(spec, c)) {
            CProducer.Run run = CProducer.start(host.file(), dir, "2", "" + events, "pools");
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            RegionStats s = host.stop();
            assertThat(c.problems()).isEmpty();
            assertThat(s.reconciled()).isTrue();
            List<RegionLane> used = s.lanes().stream().filter(l -> l.state() != LaneState.UNUSED).toList();
            assertThat(used).hasSize(2);
            RegionLane block = used.stream().filter(l -> l.pool().equals(RegionSpec.USER_POOL)).findFirst()
                    .orElseThrow();
            RegionLane drop = used.stream().filter(l -> l.pool().equals("sampled")).findFirst().orElseThrow();
            assertThat(c.thread(block.lane())).as("thread 0 writes pool 0").isZero();
            assertThat(c.thread(drop.lane())).as("thread 1 writes pool 1").isEqualTo(1);
            // BLOCK: every record, once, in order (rising by at least 1, all of 0..events-1 seen)
            assertThat(block.stats().total()).isEqualTo(events);
            assertThat(block.stats().collected()).isEqualTo(events);
            assertThat(block.stats().dropped()).isZero();
            assertThat(c.count(block.lane())).isEqualTo(events);
            assertThat(c.next(block.lane())).isEqualTo(events);
            // DROP: the loss is counted, record for record
            LaneStats d = drop.stats();
            assertThat(d.total()).isEqualTo(events);
            assertThat(d.dropped()).as("a 1 ms collector against one 32-record buffer drops").isPositive();
            assertThat(d.collected()).isEqualTo(c.count(drop.lane()));
            assertThat(d.collected() + d.dropped()).isEqualTo(d.total());
            assertThat(d.backstopExpiries()).as("DROP never waits").isZero();
            assertThat(d.stallCount()).isZero();
        }
    }

    @Test
    void aProducerKilledMidRunLosesNothingItCommitted() throws Exception {
        // 1000-record buffers: 1500 records are one published buffer and 500 committed in the current one.
        RegionSpec spec = RegionSpec.builder().userPool(1000, 4, 4).build();
        SequenceCollector c = new SequenceCollector(true, 0);
        try (RegionHost host = start(spec, c)) {
            CProducer.Run run = CProducer.start(host.file(), dir, "3", "1500", "hold");
            run.awaitLine("ready");
            assertThat(host.producersAlive()).isTrue();
            run.process().destroyForcibly();  // SIGKILL: no exit hook runs
            run.waitFor();
            assertThat(host.producersAlive()).isFalse();
            RegionStats s = host.stop();

            assertThat(c.problems()).isEmpty();
            assertThat(s.reconciled()).isTrue();
            List<RegionLane> exited = s.lanes(LaneState.PRODUCER_EXITED);
            assertThat(exited).hasSize(3);
            assertThat(exited).allSatisfy(l -> {
                assertThat(l.reason()).isEqualTo("producer exited (pid " + run.process().pid() + ")");
                assertThat(l.stats().total()).isEqualTo(1500);
                assertThat(l.stats().collected()).as("published buffer + committed records of the current one")
                        .isEqualTo(1500);
                assertThat(c.next(l.lane())).isEqualTo(1500);
                assertThat(l.stats().droppedExited()).isZero();
                assertThat(l.stats().droppedStopped())
                        .as("a dead producer's lane is closed at once (its process is not alive), not revoked")
                        .isZero();
            });
            assertThat(s.pipeline().stuck()).isEmpty();
            assertThat(s.processes()).singleElement().satisfies(p -> assertThat(p.detached()).isFalse());
        }
    }

    @Test
    void aProducerStartedAfterItsHostStoppedDropsEveryRecordAtOnce() throws Exception {
        Path file = regionOfStoppedHost();  // stop closed every lane (idle -> closed); the file stays
        LaneCounters lane = produce2000(file);
        assertThat(lane.attach()).as("the host's closed state is kept").isEqualTo(RegionLayout.LANE_CLOSED);
        assertThat(lane.total()).isEqualTo(2000);
        assertThat(lane.published()).isZero();
        assertThat(lane.expiries()).as("a closed lane is never waited for").isZero();
        assertThat(lane.droppedDegraded()).isEqualTo(2000);
        assertThat(lane.dropped()).isEqualTo(2000);
    }

    /** @return the file of a region whose host started and stopped: one lane of one 16-record buffer, 200 ms backstop */
    private Path regionOfStoppedHost() {
        RegionSpec spec = RegionSpec.builder().userPool(16, 1, 2).backstop(Duration.ofMillis(200)).build();
        try (RegionHost host = start(spec, new SequenceCollector(true, 0))) {
            return host.file();
        }
    }

    /** Runs a producer of 2000 events on one thread against {@code file}; @return its lane's counters after it ended */
    private LaneCounters produce2000(Path file) throws Exception {
        CProducer.Run run = CProducer.start(file, dir, "1", "2000");
        assertThat(run.waitFor()).as(run.stderr()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=1\n");
        return LaneCounters.read(file, 0);
    }
}
