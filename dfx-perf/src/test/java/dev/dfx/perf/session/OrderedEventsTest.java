package dev.dfx.perf.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * perf's reorder queue: a hand-worked example of its round semantics, stable order for equal timestamps,
 * and sequence checks on seeded random streams whose disorder is bounded by one round (as perf record writes
 * them).
 */
class OrderedEventsTest {
    /** Events are tagged with their arrival index in {@code sample()}'s place: time and the index. */
    private record Tagged(long time, int index) {
    }

    private final List<Tagged> delivered = new ArrayList<>();
    private final OrderedEvents queue = new OrderedEvents();
    private int arrivals;

    private void round() {
        queue.startRound();
        take();
    }

    private void end() {
        queue.startFinal();
        take();
    }

    /** Takes the flush started last, record by record, as the processing iterator does. */
    private void take() {
        for (TimedRecord r = queue.poll(); r != null; r = queue.poll()) {
            delivered.add(tagOf(r));
        }
    }

    private final IdentityHashMap<TimedRecord, Tagged> byRecord = new IdentityHashMap<>();

    private Tagged tagOf(TimedRecord r) {
        return byRecord.get(r);
    }

    /** @return whether the queue counted the record as out of order */
    private boolean push(long ts) {
        TimedRecord r = new TimedRecord(ts, null, null, null);
        byRecord.put(r, new Tagged(ts, arrivals++));
        return queue.queue(r);
    }

    @Test
    void roundsReleaseEventsUpToThePreviousRoundsMaximum() {
        // worked by hand from ordered-events.c: the first round releases nothing and sets the limit to 5;
        // the second releases 3, 4, 5 and sets the limit to 9; 1 arrives late; the end releases 1 and 9
        push(5);
        push(3);
        round();
        assertThat(delivered).isEmpty();
        assertThat(push(4)).as("4 after a round that flushed nothing").isFalse();
        push(9);
        round();
        assertThat(delivered).extracting(Tagged::time).containsExactly(3L, 4L, 5L);
        assertThat(push(1)).as("1 after 5 was flushed").isTrue();
        assertThat(push(6)).as("6 after 5 was flushed").isFalse();
        end();
        assertThat(delivered).extracting(Tagged::time).containsExactly(3L, 4L, 5L, 1L, 6L, 9L);
    }

    @Test
    void equalTimestampsKeepArrivalOrder() {
        push(7);
        push(2);
        push(7);
        push(2);
        push(7);
        end();
        assertThat(delivered).extracting(Tagged::index).containsExactly(1, 3, 0, 2, 4);
    }

    static IntStream seeds() {
        return IntStream.range(0, 20);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void boundedDisorderComesOutSortedAndStable(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long base = 1000;
        int rounds = 1 + rnd.nextInt(30);
        for (int r = 0; r < rounds; r++) {
            int n = rnd.nextInt(40);
            for (int i = 0; i < n; i++) {
                // within a round, times lie in [base, base + 100): equal times are frequent
                push(base + rnd.nextInt(20) * 5L);
            }
            base += 100;
            round();
        }
        end();
        assertThat(delivered).hasSize(arrivals);
        for (int i = 1; i < delivered.size(); i++) {
            Tagged a = delivered.get(i - 1);
            Tagged b = delivered.get(i);
            assertThat(b.time()).isGreaterThanOrEqualTo(a.time());
            if (a.time() == b.time()) {
                assertThat(b.index()).isGreaterThan(a.index());
            }
        }
    }
}
