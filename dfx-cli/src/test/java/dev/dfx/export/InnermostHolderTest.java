package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InnermostHolderTest {
    @Test
    void findsTheInnermostHolderOfHandPlacedSlices() {
        // index: 0 [0,100] 1 [10,50] 2 [20,30] 3 [40,40] 4 [60,120] (overlaps 0) 5 [200,210]
        InnermostHolder h = new InnermostHolder(new long[] {0, 10, 20, 40, 60, 200},
                new long[] {100, 50, 30, 40, 120, 210});
        assertThat(h.at(-1)).isEqualTo(-1);
        assertThat(h.at(0)).isZero();
        assertThat(h.at(25)).isEqualTo(2);
        assertThat(h.at(30)).isEqualTo(2);  // ends are inclusive
        assertThat(h.at(35)).isEqualTo(1);
        assertThat(h.at(40)).isEqualTo(3);  // a zero-length slice holds its own time
        assertThat(h.at(55)).isZero();
        assertThat(h.at(60)).isEqualTo(4); // two holders: the later-starting one
        assertThat(h.at(110)).isEqualTo(4);
        assertThat(h.at(150)).isEqualTo(-1);
        assertThat(h.at(205)).isEqualTo(5);
        assertThat(h.at(300)).isEqualTo(-1);
        assertThat(new InnermostHolder(new long[0], new long[0]).at(0)).isEqualTo(-1);
    }

    @Test
    void agreesWithAScanThatKeepsTheLastHolder() {
        SplittableRandom random = new SplittableRandom(20261203);
        for (int round = 0; round < 200; round++) {
            int n = random.nextInt(1, 300);
            long[] starts = new long[n];
            for (int i = 0; i < n; i++) {
                starts[i] = random.nextLong(0, 1_000);
            }
            Arrays.sort(starts);
            long[] ends = new long[n];
            for (int i = 0; i < n; i++) {
                ends[i] = starts[i] + (random.nextInt(4) == 0 ? 0 : random.nextLong(0, 200));
            }
            InnermostHolder h = new InnermostHolder(starts, ends);
            for (long ts = -5; ts <= 1_250; ts++) {
                int expected = -1;
                for (int i = 0; i < n && starts[i] <= ts; i++) {
                    if (ends[i] >= ts) {
                        expected = i;
                    }
                }
                assertThat(h.at(ts)).as("round %d, time %d", round, ts).isEqualTo(expected);
            }
        }
    }

    /**
     * A thread that holds many short slices and flow points between them (an executor's submitting thread, whose
     * points fall outside its slices): each lookup looks at a number of tree nodes that grows with the log of the
     * slices, not with the slices that start before the point (a scan looked at half of them on average).
     */
    @Test
    void aLookupCostsTheLogOfTheSlices() {
        for (int n : new int[] {1 << 10, 1 << 16}) {
            long[] starts = new long[n];
            long[] ends = new long[n];
            for (int i = 0; i < n; i++) {
                starts[i] = 10L * i;
                ends[i] = 10L * i + 2;
            }
            InnermostHolder h = new InnermostHolder(starts, ends);
            for (int i = 0; i < n; i++) {
                assertThat(h.at(10L * i + 1)).isEqualTo(i);
                assertThat(h.at(10L * i + 5)).isEqualTo(-1);
            }
            int log = Integer.numberOfTrailingZeros(n);
            // per lookup: the path to the prefix's end, each node's one sibling probe, and one descent
            assertThat(h.visits()).isLessThanOrEqualTo(2L * n * 4 * (log + 1));
        }
    }

    @Test
    void refusesStartsOutOfOrder() {
        assertThatThrownBy(() -> new InnermostHolder(new long[] {5, 4}, new long[] {5, 4}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 1");
        assertThatThrownBy(() -> new InnermostHolder(new long[] {5}, new long[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
