package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A collector that throws never kills the pipeline: that buffer's records are counted lost with cause
 * COLLECTOR, the error is reported, and later buffers keep arriving. stop() is idempotent.
 */
class CollectorFailureTest {

    @Test
    void throwingCollectorLosesOnlyThatBufferAndIsReported() throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("failing");
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 10, 2));
        b.lane(kind, 0);
        b.lane(kind, 1);
        AtomicLong thrownRecords = new AtomicLong();
        AtomicLong acceptedRecords = new AtomicLong();
        Collector c = buf -> {
            if (buf.seq() % 3 == 1) {
                thrownRecords.addAndGet(buf.recordCount());
                throw new IOException("disk full (test)");
            }
            acceptedRecords.addAndGet(buf.recordCount());
        };
        try (Pipeline p = Pipeline.start(b.build(), c)) {
            TestProducers.run(p, 1_000, 17);
            PipelineStats s = p.stop();
            assertThat(thrownRecords.get()).isPositive();
            assertThat(s.lanes().stream().mapToLong(LaneStats::droppedCollector).sum()).isEqualTo(thrownRecords.get());
            assertThat(s.collected()).isEqualTo(acceptedRecords.get());
            assertThat(s.total()).isEqualTo(2_000);
            assertThat(s.reconciled()).isTrue();
            // 100 buffers per lane; seqs 1, 4, ..., 97 throw: 33 per lane
            assertThat(s.errorCount()).isEqualTo(66);
            assertThat(s.errors().get(0)).contains("lost: collector threw java.io.IOException: disk full (test)");
            assertThat(p.stop()).as("idempotent").isSameAs(s);
            assertThat(p.stats()).isSameAs(s);
        }
    }
}
