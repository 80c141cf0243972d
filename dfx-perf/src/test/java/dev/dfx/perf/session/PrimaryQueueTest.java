package dev.dfx.perf.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.trace.MergeQueue;
import dev.dfx.trace.PrimaryMerge;
import dev.dfx.trace.QueueHeapMerge;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The processing-order stream plugged into dfx-core's merge as its primary stream: with one synthetic AUX queue
 * of three entries, each entry comes out just after the last record at or before its time, and every record
 * comes out once in perf's order.
 */
class PrimaryQueueTest {
    /** A queue of fixed timestamps. */
    private static final class Fixed implements MergeQueue {
        private final long[] ts;
        private int i;

        Fixed(long... ts) {
            this.ts = ts;
        }

        @Override
        public boolean hasEntry() {
            return i < ts.length;
        }

        @Override
        public long timestamp() {
            return ts[i];
        }

        @Override
        public void advance() {
            i++;
        }
    }

    @Test
    void auxEntriesInterleaveByTime() {
        List<Long> expectedOrder = new ArrayList<>();
        try (PerfSession s = PerfSession.open(Goldens.fixture("irq-a.data"), "irq-a.data")) {
            s.processingOrder(true).forEachRemaining(t -> expectedOrder.add(t.time() == -1 ? 0 : t.time()));
        }
        long firstSample = expectedOrder.stream().filter(t -> t > 0).findFirst().orElseThrow();
        long aux1 = firstSample + 1;
        long aux2 = firstSample + 2_000_000;
        long aux3 = Long.MAX_VALUE;
        try (PerfSession s = PerfSession.open(Goldens.fixture("irq-a.data"), "irq-a.data")) {
            PrimaryMerge<PrimaryQueue, Fixed> merge = new PrimaryMerge<>(new PrimaryQueue(s.processingOrder(true)),
                QueueHeapMerge.of(List.of(new Fixed(aux1, aux2, aux3))));
            List<Long> primary = new ArrayList<>();
            List<Long> merged = new ArrayList<>();
            for (int q = merge.next(); q != QueueHeapMerge.NONE; q = merge.next()) {
                long t = q == PrimaryMerge.PRIMARY ? merge.primary().timestamp() : merge.queues().queue(q).timestamp();
                merged.add(t);
                if (q == PrimaryMerge.PRIMARY) {
                    primary.add(t);
                }
            }
            assertThat(primary).isEqualTo(expectedOrder);
            assertThat(merged).hasSize(expectedOrder.size() + 3);
            int at1 = merged.indexOf(aux1);
            assertThat(merged.subList(at1 + 1, merged.size())).allMatch(t -> t == 0 || t > aux1);
            assertThat(merged.get(merged.size() - 1)).isEqualTo(aux3);
        }
    }
}
