package dev.dfx.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** Hand-worked cases of the merge's contract: ties, the primary bound, resumption, refresh, backwards queues. */
class QueueHeapMergeTest {

    /** Entries as "q:ts" strings, in the order the merge hands them out. */
    private static List<String> drain(QueueHeapMerge<ArrayQueue> m) {
        List<String> out = new ArrayList<>();
        for (int q; (q = m.next()) != QueueHeapMerge.NONE; ) {
            out.add(q + ":" + m.queue(q).timestamp());
        }
        return out;
    }

    private static ArrayQueue queue(long[]... buffers) {
        return new ArrayQueue(List.of(buffers));
    }

    @Test
    void equalTimestampsKeepQueueOrderThenInQueueOrder() {
        QueueHeapMerge<ArrayQueue> m = QueueHeapMerge.of(List.of(
                queue(new long[]{5, 5}, new long[]{7}),
                queue(new long[]{3, 5}),
                queue(),
                queue(new long[]{}, new long[]{5, 6})));

        assertThat(drain(m)).containsExactly("1:3", "0:5", "0:5", "1:5", "3:5", "3:6", "0:7");
    }

    @Test
    void nextBeforeHandsOutOnlyStrictlyOlderEntriesAndResumesMidBuffer() {
        QueueHeapMerge<ArrayQueue> m = QueueHeapMerge.of(List.of(
                queue(new long[]{1, 4, 10, 12}),
                queue(new long[]{4, 9})));

        List<String> out = new ArrayList<>();
        for (int q; (q = m.nextBefore(4)) != QueueHeapMerge.NONE; ) {
            out.add(q + ":" + m.queue(q).timestamp());
        }
        assertThat(out).containsExactly("0:1");
        // Queue 0 stopped inside its buffer, at the entry with timestamp 4.
        assertThat(m.queue(0).indexInBuffer()).isEqualTo(1);

        out.clear();
        for (int q; (q = m.nextBefore(10)) != QueueHeapMerge.NONE; ) {
            out.add(q + ":" + m.queue(q).timestamp());
        }
        assertThat(out).containsExactly("0:4", "1:4", "1:9");
        assertThat(drain(m)).containsExactly("0:10", "0:12");
    }

    @Test
    void primaryRecordComesBeforeQueuedEntriesOfTheSameTimestamp() {
        ArrayQueue primary = queue(new long[]{0, 10, 10, 20});
        PrimaryMerge<ArrayQueue, ArrayQueue> m = new PrimaryMerge<>(primary, QueueHeapMerge.of(List.of(
                queue(new long[]{5, 10, 15}),
                queue(new long[]{10, 20, 25}))));

        List<String> out = new ArrayList<>();
        for (int q; (q = m.next()) != QueueHeapMerge.NONE; ) {
            out.add(q == PrimaryMerge.PRIMARY ? "P:" + primary.timestamp() : q + ":" + m.queues().queue(q).timestamp());
        }
        // perf vpa-dtl: a queued entry is emitted just before the first primary record strictly later than it.
        assertThat(out).containsExactly("P:0", "0:5", "P:10", "P:10", "0:10", "1:10", "0:15", "P:20", "1:20", "1:25");
    }

    @Test
    void dropTailStopsAfterTheLastPrimaryRecordLikePerf() {
        ArrayQueue primary = queue(new long[]{10});
        PrimaryMerge<ArrayQueue, ArrayQueue> m = new PrimaryMerge<>(primary,
                QueueHeapMerge.of(List.of(queue(new long[]{9, 10, 11}))), PrimaryMerge.Tail.DROP);

        assertThat(m.next()).isZero();
        assertThat(m.queues().queue(0).timestamp()).isEqualTo(9);
        assertThat(m.next()).isEqualTo(PrimaryMerge.PRIMARY);
        assertThat(m.next()).isEqualTo(QueueHeapMerge.NONE);
    }

    @Test
    void refreshPutsAQueueThatRanDryBackInTimeOrder() {
        ArrayQueue a = queue(new long[]{1, 2});
        ArrayQueue b = queue(new long[]{3});
        QueueHeapMerge<ArrayQueue> m = QueueHeapMerge.of(List.of(a, b));

        assertThat(m.next()).isZero();
        assertThat(m.next()).isZero();
        assertThat(m.next()).isOne(); // queue 0 ran dry and left the heap
        a.append(new long[]{3, 8});
        assertThat(m.refresh(0)).isTrue();
        // Queue 1's entry at 3 was handed out and is consumed now; queue 0's new buffer follows.
        assertThat(drain(m)).containsExactly("0:3", "0:8");
        assertThat(m.refresh(1)).isFalse();
    }

    @Test
    void queueAddedDuringTheMergeCompetesFromTheNextCall() {
        QueueHeapMerge<ArrayQueue> m = QueueHeapMerge.of(List.of(queue(new long[]{1, 5, 9})));
        assertThat(m.next()).isZero();
        int added = m.add(queue(new long[]{2, 9}));

        assertThat(added).isOne();
        assertThat(drain(m)).containsExactly("1:2", "0:5", "0:9", "1:9");
    }

    @Test
    void anEntryOlderThanItsPredecessorFollowsItAndIsCounted() {
        QueueHeapMerge<ArrayQueue> m = QueueHeapMerge.of(List.of(
                queue(new long[]{10, 4, 12}),
                queue(new long[]{6, 10, 11})));

        // Queue 0's 4 is keyed 10, its predecessor's timestamp: it follows 0:10 at once and wins the tie with 1:10.
        assertThat(drain(m)).containsExactly("1:6", "0:10", "0:4", "1:10", "1:11", "0:12");
        assertThat(m.outOfOrderEntries()).isOne();
    }

    @Test
    void unsignedTimestampsAbove2To63SortAfterSmallerOnes() {
        long big = 0x8000_0000_0000_0010L; // negative as a signed long
        QueueHeapMerge<ArrayQueue> m = QueueHeapMerge.of(List.of(
                queue(new long[]{big}),
                queue(new long[]{7, -1L})));

        assertThat(drain(m)).containsExactly("1:7", "0:" + big, "1:-1");
    }

    @Test
    void emptyMergeHasNothing() {
        QueueHeapMerge<ArrayQueue> m = QueueHeapMerge.of(List.of(queue(), queue(new long[]{})));
        assertThat(m.next()).isEqualTo(QueueHeapMerge.NONE);
        assertThat(m.nextBefore(-1L)).isEqualTo(QueueHeapMerge.NONE);
        assertThat(m.hasNext()).isFalse();
    }
}
