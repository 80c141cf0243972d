package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.LaneStats;
import dev.dfx.pipeline.MemoryMode;
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
            CProducer.Run run = CProducer.start(host.file(), dir, "" + threads, "" + events);
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
            assertThat(s.processes()).singleElement().satisfies(p -> {
                assertThat(p.pid()).isEqualTo(run.process().pid());
                assertThat(p.alive()).isFalse();
                assertThat(p.detached()).isTrue();
                assertThat(p.collected()).isEqualTo((long) threads * events);
            });
            assertThat(s.unlanedDropped()).isZero();
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
            });
            assertThat(s.processes()).singleElement().satisfies(p -> assertThat(p.detached()).isFalse());
        }
    }

    @Test
    void aProducerWhoseHostIsGoneDegradesAfterOneBackstopAndRunsToItsEnd() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(16, 1, 2).backstop(Duration.ofMillis(200)).build();
        Path file;
        try (RegionHost host = start(spec, new SequenceCollector(true, 0))) {
            file = host.file();
        }  // the host is gone; the file stays
        CProducer.Run run = CProducer.start(file, dir, "1", "2000");
        assertThat(run.waitFor()).as(run.stderr()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=1\n");

        LaneCounters lane = LaneCounters.read(file, 0);
        assertThat(lane.total()).isEqualTo(2000);
        assertThat(lane.published()).as("the one buffer of the lane").isEqualTo(16);
        assertThat(lane.expiries()).as("one backstop, then degraded: no wait per record").isEqualTo(1);
        assertThat(lane.droppedPop()).isEqualTo(1);
        assertThat(lane.droppedDegraded()).isEqualTo(2000 - 16 - 1);
        assertThat(lane.dropped()).isEqualTo(2000 - 16);
        assertThat(lane.degraded()).isTrue();
        assertThat(lane.stallLongestNs()).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
    }
}
