package dev.dfx.perf.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** perf's {@code -C} cpu lists ({@code perf_cpu_map__new}, perf 6.1), each case worked out by hand. */
class CpuListTest {
    private static int[] named(CpuList l) {
        return IntStream.rangeClosed(0, l.highest()).filter(l::contains).toArray();
    }

    @Test
    void numbersAndRanges() {
        CpuList l = CpuList.parse("0-3,8");
        assertThat(named(l)).containsExactly(0, 1, 2, 3, 8);
        assertThat(l.highest()).isEqualTo(8);
        assertThat(l.contains(-1)).isFalse();
        assertThat(l.contains(9)).isFalse();
    }

    @Test
    void numbersAreReadAsStrtoulWithBaseZero() {
        assertThat(named(CpuList.parse("0x10"))).containsExactly(16);
        assertThat(named(CpuList.parse("010"))).containsExactly(8); // octal
        assertThat(named(CpuList.parse("1,1,1"))).containsExactly(1);
        assertThat(named(CpuList.parse("3-3"))).containsExactly(3);
    }

    @Test
    void overlappingRangesNameEachCpuOnce() {
        assertThat(named(CpuList.parse("2-4,3-5"))).containsExactly(2, 3, 4, 5);
    }

    @ParameterizedTest(name = "perf: Invalid cpu_list: \"{0}\"")
    @ValueSource(strings = {"", "a", "-1", "3-1", "1-", "1,,2", "1;2", "1 2", "0-99999999999", "131072", "1,a",
        "\u0663"})
    void notACpuList(String text) {
        assertThatThrownBy(() -> CpuList.parse(text)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("'" + text + "' is not a cpu list");
    }
}
