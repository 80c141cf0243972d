package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FlowIdMapTest {
    @Test
    void holdsWhatWasPutUntilItIsRemoved() {
        FlowIdMap<String> m = new FlowIdMap<>();
        assertThat(m.putIfAbsent(1, "a")).isNull();
        assertThat(m.putIfAbsent(1, "b")).isEqualTo("a"); // nothing put
        assertThat(m.putIfAbsent(-5, "neg")).isNull();
        assertThat(m.putIfAbsent(Long.MAX_VALUE, "max")).isNull();
        assertThat(m.putIfAbsent(1L << 40, "far")).isNull();
        assertThat(m.remove(2)).isNull();
        assertThat(m.remove(1)).isEqualTo("a");
        assertThat(m.remove(1)).isNull();
        assertThat(m.remove(-5)).isEqualTo("neg");
        assertThat(m.remove(Long.MAX_VALUE)).isEqualTo("max");
        assertThat(m.remove(1L << 40)).isEqualTo("far");
    }

    /** Arrow ids as a run's trace opens them: 1, 2, 3, ... mostly, some far ahead of the rest, a few anywhere. */
    @Test
    void agreesWithAHashMapWhileTheArrayGrowsPastIdsPutEarly() {
        FlowIdMap<Long> m = new FlowIdMap<>();
        Map<Long, Long> expected = new HashMap<>();
        SplittableRandom random = new SplittableRandom(20261203);
        long next = 1;
        for (int i = 0; i < 300_000; i++) {
            int what = random.nextInt(10);
            long id = what < 5 ? next++ : what < 7 ? next + random.nextInt(50_000)
                    : what < 9 ? 1 + random.nextLong(next) : random.nextLong();
            if (random.nextInt(3) == 0) {
                assertThat(m.remove(id)).isEqualTo(expected.remove(id));
            } else {
                Long value = random.nextLong();
                assertThat(m.putIfAbsent(id, value)).isEqualTo(expected.putIfAbsent(id, value));
            }
        }
        for (Map.Entry<Long, Long> e : Map.copyOf(expected).entrySet()) {
            assertThat(m.remove(e.getKey())).isEqualTo(e.getValue());
            assertThat(m.remove(e.getKey())).isNull();
        }
    }
}
