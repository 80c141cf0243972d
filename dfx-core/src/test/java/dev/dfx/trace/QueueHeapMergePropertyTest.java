package dev.dfx.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

/**
 * The merge against a plain stable sort on random inputs: 1..64 queues (seed % 64 + 1), empty queues and empty
 * buffers, many duplicate timestamps within and across queues, unsigned timestamps across 2^63, a primary stream,
 * resumption mid-buffer with buffers arriving over time, and queues whose timestamps go backwards.
 */
class QueueHeapMergePropertyTest {
    private static final int PRIMARY_QUEUE = -2;

    static LongStream seeds() {
        return LongStream.range(0, 256);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void mergeEqualsStableSort(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<List<long[]>> data = randomQueues(r, lanes(seed), base(seed), true);
        MergeOracle oracle = new MergeOracle();
        List<ArrayQueue> queues = new ArrayList<>();
        for (int q = 0; q < data.size(); q++) {
            oracle.add(q, data.get(q));
            queues.add(new ArrayQueue(data.get(q)));
        }
        QueueHeapMerge<ArrayQueue> merge = QueueHeapMerge.of(queues);

        assertThat(drain(merge)).containsExactlyElementsOf(oracle.sortedIds());
        assertThat(merge.outOfOrderEntries()).isZero();
        assertThat(merge.hasNext()).isFalse();
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void primaryStreamInterleavesLikeStableSortWithPrimaryFirst(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long base = base(seed);
        List<List<long[]>> data = randomQueues(r, lanes(seed), base, true);
        long[] primaryTimes = sortedUnsigned(r, base, r.nextInt(0, 200), seed % 7 == 0);

        MergeOracle oracle = new MergeOracle();
        oracle.add(PRIMARY_QUEUE, List.of(primaryTimes)); // listed first: wins ties
        for (int q = 0; q < data.size(); q++) {
            oracle.add(q, data.get(q));
        }
        List<Long> expected = oracle.sortedIds();

        assertThat(drain(primaryMerge(data, primaryTimes, PrimaryMerge.Tail.DRAIN))).containsExactlyElementsOf(expected);

        int lastPrimary = -1;
        for (int i = 0; i < expected.size(); i++) {
            if (expected.get(i) >> 32 == PRIMARY_QUEUE) {
                lastPrimary = i;
            }
        }
        assertThat(drain(primaryMerge(data, primaryTimes, PrimaryMerge.Tail.DROP)))
                .containsExactlyElementsOf(expected.subList(0, lastPrimary + 1));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void resumesMidBufferWhileBuffersArrive(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<List<long[]>> data = randomQueues(r, lanes(seed), base(seed), true);
        MergeOracle oracle = new MergeOracle();
        QueueHeapMerge<ArrayQueue> merge = new QueueHeapMerge<>(1);
        for (int q = 0; q < data.size(); q++) {
            oracle.add(q, data.get(q));
            merge.add(new ArrayQueue());
        }
        int[] released = new int[data.size()];
        List<Long> out = new ArrayList<>();
        long bound = base(seed);
        for (int step = 0; step < 40; step++) {
            bound += r.nextInt(0, 30);
            // Every buffer that may hold an entry older than the bound must be queued first (perf: new_data).
            for (int q = 0; q < data.size(); q++) {
                List<long[]> buffers = data.get(q);
                boolean added = false;
                while (released[q] < buffers.size() && startsBefore(buffers.get(released[q]), bound)) {
                    merge.queue(q).append(buffers.get(released[q]++));
                    added = true;
                }
                if (added) {
                    merge.refresh(q);
                }
            }
            int budget = r.nextInt(0, 40); // stop after a few entries, mid-buffer, and resume at the next step
            for (int q; budget-- > 0 && (q = merge.nextBefore(bound)) != QueueHeapMerge.NONE; ) {
                assertThat(Long.compareUnsigned(merge.queue(q).timestamp(), bound)).isNegative();
                out.add(MergeOracle.id(q, merge.queue(q).position()));
            }
        }
        for (int q = 0; q < data.size(); q++) {
            while (released[q] < data.get(q).size()) {
                merge.queue(q).append(data.get(q).get(released[q]++));
            }
            merge.refresh(q);
        }
        out.addAll(drain(merge));

        assertThat(out).containsExactlyElementsOf(oracle.sortedIds());
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void queuesGoingBackwardsAreKeyedByTheirRunningMaximum(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<List<long[]>> data = randomQueues(r, lanes(seed), 1_000, false);
        MergeOracle oracle = new MergeOracle();
        List<ArrayQueue> queues = new ArrayList<>();
        long backwards = 0;
        for (int q = 0; q < data.size(); q++) {
            oracle.addClamped(q, data.get(q));
            queues.add(new ArrayQueue(data.get(q)));
            long max = 0;
            for (long[] b : data.get(q)) {
                for (long ts : b) {
                    if (Long.compareUnsigned(ts, max) < 0) {
                        backwards++;
                    } else {
                        max = ts;
                    }
                }
            }
        }
        QueueHeapMerge<ArrayQueue> merge = QueueHeapMerge.of(queues);

        assertThat(drain(merge)).containsExactlyElementsOf(oracle.sortedIds());
        assertThat(merge.outOfOrderEntries()).isEqualTo(backwards);
    }

    /**
     * Timestamps scaled by 2^40..2^50, so that live keys span from well inside to far beyond the heap's encoding
     * window (2^57 ns for 64 queues: rebasing, then exact comparison), with half of the queues added after the merge
     * has handed out some entries (the queue-number width grows while entries are live).
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void wideTimestampSpreadsAndQueuesAddedMidMerge(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long scale = 1L << r.nextInt(40, 51);
        List<List<long[]>> data = randomQueues(r, lanes(seed), 0, true);
        for (List<long[]> q : data) {
            for (long[] b : q) {
                for (int i = 0; i < b.length; i++) {
                    b[i] *= scale;
                }
            }
        }
        int firstHalf = (data.size() + 1) / 2;
        MergeOracle early = new MergeOracle();
        for (int q = 0; q < firstHalf; q++) {
            early.add(q, data.get(q));
        }
        List<Long> earlyOrder = early.sortedIds();
        int consumedEarly = r.nextInt(0, earlyOrder.size() + 1);

        QueueHeapMerge<ArrayQueue> merge = new QueueHeapMerge<>(1);
        for (int q = 0; q < firstHalf; q++) {
            merge.add(new ArrayQueue(data.get(q)));
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < consumedEarly; i++) {
            int q = merge.next();
            out.add(MergeOracle.id(q, merge.queue(q).position()));
        }
        for (int q = firstHalf; q < data.size(); q++) {
            merge.add(new ArrayQueue(data.get(q)));
        }
        out.addAll(drain(merge));

        // Expected: the first entries of the first half, then everything left, stably sorted.
        MergeOracle rest = new MergeOracle();
        List<Long> consumed = earlyOrder.subList(0, consumedEarly);
        Set<Long> consumedIds = new HashSet<>(consumed);
        for (int q = 0; q < data.size(); q++) {
            int position = 0;
            for (long[] b : data.get(q)) {
                for (long ts : b) {
                    if (!consumedIds.contains(MergeOracle.id(q, position))) {
                        rest.addEntry(ts, q, position);
                    }
                    position++;
                }
            }
        }
        List<Long> expected = new ArrayList<>(consumed);
        expected.addAll(rest.sortedIds());
        assertThat(out).containsExactlyElementsOf(expected);
    }

    private static PrimaryMerge<ArrayQueue, ArrayQueue> primaryMerge(List<List<long[]>> data, long[] primaryTimes,
                                                                       PrimaryMerge.Tail tail) {
        return new PrimaryMerge<>(new ArrayQueue(List.of(primaryTimes)),
                QueueHeapMerge.of(data.stream().map(ArrayQueue::new).toList()), tail);
    }

    static List<Long> drain(QueueHeapMerge<ArrayQueue> merge) {
        List<Long> out = new ArrayList<>();
        for (int q; (q = merge.next()) != QueueHeapMerge.NONE; ) {
            out.add(MergeOracle.id(q, merge.queue(q).position()));
        }
        return out;
    }

    static List<Long> drain(PrimaryMerge<ArrayQueue, ArrayQueue> merge) {
        List<Long> out = new ArrayList<>();
        for (int q; (q = merge.next()) != QueueHeapMerge.NONE; ) {
            ArrayQueue source = q == PrimaryMerge.PRIMARY ? merge.primary() : merge.queues().queue(q);
            out.add(MergeOracle.id(q == PrimaryMerge.PRIMARY ? PRIMARY_QUEUE : q, source.position()));
        }
        return out;
    }

    private static int lanes(long seed) {
        return (int) (seed % 64) + 1;
    }

    /** Every fifth seed starts just below 2^63 so that unsigned order differs from signed order. */
    private static long base(long seed) {
        return seed % 5 == 0 ? Long.MAX_VALUE - 300 : 0;
    }

    private static boolean startsBefore(long[] buffer, long bound) {
        return buffer.length == 0 || Long.compareUnsigned(buffer[0], bound) < 0;
    }

    /**
     * @param monotonic when false, some steps go backwards (a queue out of time order)
     * @return per queue, 0..4 buffers of 0..23 entries
     */
    static List<List<long[]>> randomQueues(SplittableRandom r, int lanes, long base, boolean monotonic) {
        List<List<long[]>> queues = new ArrayList<>();
        for (int q = 0; q < lanes; q++) {
            long ts = base + r.nextInt(0, 40);
            List<long[]> buffers = new ArrayList<>();
            for (int b = r.nextInt(0, 5); b > 0; b--) {
                long[] entries = new long[r.nextInt(0, 24)];
                for (int i = 0; i < entries.length; i++) {
                    entries[i] = ts;
                    ts += step(r);
                    if (!monotonic && r.nextInt(4) == 0) {
                        ts -= r.nextInt(0, 30);
                    }
                }
                buffers.add(entries);
            }
            queues.add(buffers);
        }
        return queues;
    }

    private static long step(SplittableRandom r) {
        return switch (r.nextInt(4)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> r.nextInt(1, 5);
            default -> r.nextInt(0, 60);
        };
    }

    /** @param withZeros whether some leading primary records have timestamp 0 (perf delivers those unsorted) */
    private static long[] sortedUnsigned(SplittableRandom r, long base, int n, boolean withZeros) {
        long[] out = new long[n];
        long ts = base;
        for (int i = 0; i < n; i++) {
            out[i] = withZeros && i < 3 ? 0 : ts;
            ts += step(r);
        }
        return out;
    }
}
