package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** perf's red-black tree of symbols: shapes computed by hand, and the red-black properties under random use. */
class SymbolTreeTest {
    @Test
    void ascendingInsertionsRotateTheMiddleUp() {
        SymbolTree t = new SymbolTree(4);
        t.insert(0, 10, 11);
        t.insert(1, 20, 21);
        t.insert(2, 30, 31);
        // 10, 20, 30: a left rotation at 10 makes 20 the root
        assertThat(t.root()).isEqualTo(1);
        assertThat(t.left(1)).isEqualTo(0);
        assertThat(t.right(1)).isEqualTo(2);
        t.insert(3, 40, 41);
        // the red uncle case recolours: the shape stays, 40 hangs right of 30
        assertThat(t.root()).isEqualTo(1);
        assertThat(t.right(2)).isEqualTo(3);
        // erasing the root (two children) puts its successor 30 in its place
        t.erase(1);
        assertThat(t.root()).isEqualTo(2);
        assertThat(t.left(2)).isEqualTo(0);
        assertThat(t.right(2)).isEqualTo(3);
        assertThat(t.check()).isPositive();
    }

    @Test
    void anEqualStartGoesRightAndTheSearchReturnsTheFirstHolderOnItsPath() {
        SymbolTree t = new SymbolTree(3);
        t.insert(0, 0x100, 0x200);
        t.insert(1, 0x100, 0x180);
        assertThat(t.right(0)).isEqualTo(1);
        assertThat(t.find(0x150)).as("the root holds it first").isEqualTo(0);
        assertThat(t.find(0x1ff)).isEqualTo(0);
        assertThat(t.find(0x200)).isEqualTo(-1);
        t.insert(2, 0x300, 0x300);
        assertThat(t.find(0x300)).as("a symbol without size holds its start").isEqualTo(2);
        assertThat(t.find(0x301)).isEqualTo(-1);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void randomInsertionsAndErasuresKeepTheRedBlackPropertiesAndTheOrder(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 2_000;
        SymbolTree t = new SymbolTree(n);
        long[] starts = new long[n];
        List<Integer> live = new ArrayList<>();
        TreeSet<Long> keys = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            long s;
            do {
                s = r.nextLong(1, 1L << 40) * 16;
            } while (!keys.add(s));
            starts[i] = s;
            t.insert(i, s, s + 8);
            live.add(i);
            if (r.nextInt(3) == 0) {
                int k = live.remove(r.nextInt(live.size()));
                t.erase(k);
                keys.remove(starts[k]);
            }
            assertThat(t.check()).as("after step %d", i).isPositive();
        }
        for (int k : live) {
            assertThat(t.find(starts[k] + 3)).isEqualTo(k);
            assertThat(t.find(starts[k] + 8)).isEqualTo(-1);
        }
        assertThat(t.check()).isLessThanOrEqualTo(2 * (64 - Long.numberOfLeadingZeros(live.size())) + 1);
    }
}
