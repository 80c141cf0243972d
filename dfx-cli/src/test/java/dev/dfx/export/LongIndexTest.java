package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongIndexTest {
    @Test
    void numbersKeysInTheOrderTheyWereFirstAdded() {
        LongIndex index = new LongIndex();
        assertThat(index.add(-1)).isZero();  // the free-slot marker's value is an ordinary key
        assertThat(index.add(0)).isEqualTo(1);
        assertThat(index.add(-1)).isZero();
        assertThat(index.add(Long.MIN_VALUE)).isEqualTo(2);
        assertThat(index.add(Long.MAX_VALUE)).isEqualTo(3);
        assertThat(index.size()).isEqualTo(4);
        assertThat(index.index(0)).isEqualTo(1);
        assertThat(index.index(1)).isEqualTo(-1);
        assertThat(index.index(Long.MIN_VALUE)).isEqualTo(2);
    }

    @Test
    void agreesWithAHashMapThroughEveryGrowth() {
        LongIndex index = new LongIndex();
        Map<Long, Integer> expected = new HashMap<>();
        SplittableRandom random = new SplittableRandom(20261202);
        for (int i = 0; i < 200_000; i++) {
            // task ids: a ring in the high half, a counter in the low one; a few arbitrary values
            long key = i % 7 == 0 ? random.nextLong() : ((long) random.nextInt(4) << 32) | random.nextInt(60_000);
            int before = expected.size();
            Integer known = expected.putIfAbsent(key, before);
            assertThat(index.add(key)).isEqualTo(known == null ? before : known);
        }
        assertThat(index.size()).isEqualTo(expected.size());
        expected.forEach((k, v) -> assertThat(index.index(k)).isEqualTo(v));
        for (int i = 0; i < 10_000; i++) {
            long key = random.nextLong();
            assertThat(index.index(key)).isEqualTo(expected.getOrDefault(key, -1));
        }
    }
}
