package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DROP never waits, counts every loss, and the records that arrive are exactly the ones not dropped: per lane,
 * delivered numbers strictly increase, and the missing numbers add up to the per-cause drop counts and to the counts
 * of the lane's drop windows.
 */
class DropPolicyTest {

    @ParameterizedTest(name = "readyQueueSize {0}, {1} buf/lane, {2}")
    @CsvSource({
        "2, 4, SHARED",   // one usable ready entry: full buffers are dropped at the push gate
        "0, 1, SHARED",   // default ready queue, one buffer: records are dropped at the pop gate
        "3, 2, COPY",
    })
    void deliveredRecordsAreExactlyTheOnesNotDropped(int readyQueueSize, int buffersPerLane, MemoryMode mode)
            throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("drop").policy(BackpressurePolicy.DROP).memoryMode(mode);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 16, buffersPerLane));
        for (int q = 0; q < 2; q++) {
            b.lane(kind, q);
            b.lane(kind, q);
        }
        if (readyQueueSize > 0) {
            b.readyQueueSize(readyQueueSize);
        }
        long perLane = 20_000;
        SequenceChecker checker = new SequenceChecker(4, 300_000);  // 0.3 ms per buffer: far slower than producers
        try (Pipeline p = Pipeline.start(b.build(), checker)) {
            TestProducers.run(p, perLane, 99);
            PipelineStats s = p.stop();
            assertThat(checker.problems()).isEmpty();
            long droppedAll = 0;
            for (LaneStats l : s.lanes()) {
                long delivered = checker.delivered(l.lane());
                long missing = perLane - delivered;
                assertThat(l.total()).isEqualTo(perLane);
                assertThat(l.collected()).isEqualTo(delivered);
                assertThat(l.collected() + l.dropped()).isEqualTo(l.total());
                assertThat(l.droppedPushGate() + l.droppedPopGate() + l.droppedDegraded()).isEqualTo(missing);
                assertThat(l.droppedDegraded()).as("no backstop under DROP").isZero();
                assertThat(l.backstopExpiries()).isZero();
                assertThat(l.stallCount()).as("DROP never waits").isZero();
                // when: every drop is in one of the lane's drop windows, which are ordered and disjoint
                assertThat(l.dropWindows().stream().mapToLong(DropWindow::count).sum()).isEqualTo(l.dropped());
                DropWindowTest.assertOrderedAndDisjoint(l.dropWindows());
                assertThat(l.dropRuns()).isGreaterThanOrEqualTo(l.dropWindows().size());
                droppedAll += l.dropped();
            }
            assertThat(droppedAll).as("the slow collector must have caused drops").isPositive();
            if (readyQueueSize == 2) {
                assertThat(s.lanes()).anyMatch(l -> l.droppedPushGate() > 0);
            }
            if (buffersPerLane == 1) {
                assertThat(s.lanes()).anyMatch(l -> l.droppedPopGate() > 0);
            }
            assertThat(s.reconciled()).isTrue();
        }
    }
}
