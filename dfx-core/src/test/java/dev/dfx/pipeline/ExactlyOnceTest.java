package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exactly-once, in-lane-order delivery under BLOCK with a deliberately slow collector, for pool sizes from one
 * buffer per lane up, several producers with several lanes each, SHARED and COPY (docs/benchmarks.md, reliability).
 */
class ExactlyOnceTest {

    static Pipeline pipeline(int producers, int lanesPerProducer, int recordsPerBuffer, int buffersPerLane,
            MemoryMode mode, Collector c) {
        PipelineConfig.Builder b = PipelineConfig.builder("exactly-once").memoryMode(mode);
        int kind = b.pool(new PoolSpec("test", SequenceChecker.RECORD, recordsPerBuffer, buffersPerLane));
        for (int q = 0; q < producers; q++) {
            for (int i = 0; i < lanesPerProducer; i++) {
                b.lane(kind, q);
            }
        }
        return Pipeline.start(b.build(), c);
    }

    static void runAndCheck(int producers, int lanesPerProducer, int recordsPerBuffer, int buffersPerLane,
            MemoryMode mode, long recordsPerLane, long sleepNanosPerBuffer, long seed) throws Exception {
        int lanes = producers * lanesPerProducer;
        SequenceChecker checker = new SequenceChecker(lanes, sleepNanosPerBuffer);
        try (Pipeline p = pipeline(producers, lanesPerProducer, recordsPerBuffer, buffersPerLane, mode, checker)) {
            TestProducers.run(p, recordsPerLane, seed);
            PipelineStats s = p.stop();
            assertThat(checker.problems()).isEmpty();
            assertThat(s.errors()).isEmpty();
            for (LaneStats l : s.lanes()) {
                assertThat(l.total()).as("lane %d total", l.lane()).isEqualTo(recordsPerLane);
                assertThat(l.dropped()).as("lane %d dropped", l.lane()).isZero();
                assertThat(l.collected()).as("lane %d collected", l.lane()).isEqualTo(recordsPerLane);
                assertThat(checker.delivered(l.lane())).isEqualTo(recordsPerLane);
                assertThat(checker.gaps(l.lane())).isZero();
                assertThat(checker.last(l.lane())).isEqualTo(recordsPerLane - 1);
                assertThat(l.backstopExpiries()).isZero();
            }
            assertThat(s.reconciled()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0} producers x {1} lanes, {2} rec/buf, {3} buf/lane, {4}")
    @CsvSource({
        "1, 1, 100, 1, SHARED",
        "2, 3, 64, 1, SHARED",
        "2, 2, 50, 2, COPY",
        "3, 2, 128, 4, SHARED",
        "2, 2, 100, 8, COPY",
        "4, 1, 1000, 8, SHARED",
    })
    void everyRecordArrivesOnceInLaneOrder(int producers, int lanes, int recordsPerBuffer, int buffersPerLane,
            MemoryMode mode) throws Exception {
        long perLane = 100_000 / (producers * lanes);
        runAndCheck(producers, lanes, recordsPerBuffer, buffersPerLane, mode, perLane, 20_000, 42 + producers);
    }

    @Test
    void twoKindsOnSharedProducersArriveOnceInLaneOrder() throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("two-kinds").drainShards(2);
        int task = b.pool(new PoolSpec("task", SequenceChecker.RECORD, 50, 6));
        int phase = b.pool(new PoolSpec("phase", SequenceChecker.RECORD, 200, 2));
        for (int q = 0; q < 3; q++) {
            b.lane(task, q);
            b.lane(phase, q);
            b.lane(task, q);
        }
        b.recycledWatermark(task, 2);
        SequenceChecker checker = new SequenceChecker(9, 20_000);
        try (Pipeline p = Pipeline.start(b.build(), checker)) {
            TestProducers.run(p, 10_000, 23);
            PipelineStats s = p.stop();
            assertThat(checker.problems()).isEmpty();
            assertThat(s.errors()).isEmpty();
            for (LaneStats l : s.lanes()) {
                assertThat(l.dropped()).isZero();
                assertThat(checker.delivered(l.lane())).isEqualTo(10_000);
            }
            assertThat(s.reconciled()).isTrue();
            assertThat(s.pools()).extracting(PoolStats::name).containsExactly("task", "phase");
            assertThat(s.pools().get(1).buffersAllocated()).as("phase has no surplus: never grows").isEqualTo(6);
        }
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress {0} producers x {1} lanes, {2} rec/buf, {3} buf/lane, {4}")
    @CsvSource({
        "1, 1, 100, 1, SHARED",
        "2, 3, 64, 1, COPY",
        "3, 2, 128, 2, SHARED",
        "4, 2, 1000, 8, COPY",
        "2, 2, 1000, 8, SHARED",
    })
    void millionsOfRecordsArriveOnceInLaneOrder(int producers, int lanes, int recordsPerBuffer,
            int buffersPerLane, MemoryMode mode) throws Exception {
        long perLane = 4_000_000 / (producers * lanes);
        runAndCheck(producers, lanes, recordsPerBuffer, buffersPerLane, mode, perLane, 2_000, 7 + lanes);
    }
}
