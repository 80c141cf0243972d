package dev.dfx.pmu;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** perf_counts_values__scale (tools/lib/perf/evsel.c) and the stat running share. */
class CounterReadingTest {

    @Test
    void scalesAsPerf() {
        CounterReading never = new CounterReading(123, 1000, 0);
        assertThat(never.counted()).isFalse();
        assertThat(never.scaledValue()).isZero();
        CounterReading half = new CounterReading(500, 1000, 400);
        assertThat(half.scaledValue()).isEqualTo(1250);      // 500 * 1000 / 400
        assertThat(half.runningPercent()).isEqualTo(40.0);
        assertThat(half.runningPercentCsv()).isEqualTo(40.0);
        CounterReading third = new CounterReading(2, 3, 2);
        assertThat(third.scaledValue()).isEqualTo(3);
        assertThat(third.runningPercent()).isCloseTo(66.6667, Offset.offset(1e-3));
        assertThat(third.runningPercentCsv()).isEqualTo(66.0); // u64 100 * 2 / 3
        CounterReading full = new CounterReading(77, 500, 500);
        assertThat(full.scaledValue()).isEqualTo(77);
        assertThat(full.multiplexed()).isFalse();
        assertThat(CounterReading.ZERO.runningPercent()).isEqualTo(100.0);
        assertThat(full.minus(half)).isEqualTo(new CounterReading(-423, -500, 100));
        assertThat(half.plus(half)).isEqualTo(new CounterReading(1000, 2000, 800));
    }
}
