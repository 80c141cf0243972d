package dev.dfx.perf.script;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The time column's values, worked by hand from perf's {@code perf_sample__fprintf_start}. */
class TimeBaseTest {
    private static long[] column(TimeBase base, long... times) {
        TimeBase.Column c = new TimeBase.Column(base);
        long[] out = new long[times.length];
        for (int i = 0; i < times.length; i++) {
            out[i] = c.shown(times[i]);
        }
        return out;
    }

    @Test
    void absoluteIsTheTimestamp() {
        assertThat(column(TimeBase.ABSOLUTE, 5, 0, 7)).containsExactly(5, 0, 7);
    }

    @Test
    void relativeCountsFromTheFirstNonZeroTime() {
        // a record without a time (0) leaves the origin unset; an earlier record after the origin wraps modulo 2^64
        // as perf's u64 does
        assertThat(column(TimeBase.RELATIVE, 0, 1_000, 1_500, 4_000, 900)).containsExactly(0, 0, 500, 3_000, -100);
    }

    @Test
    void deltaCountsFromThePreviousRecord() {
        assertThat(column(TimeBase.DELTA, 1_000, 1_500, 1_500, 4_000, 3_000)).containsExactly(0, 500, 0, 2_500,
            -1_000);
    }

    @Test
    void deltaAfterATimelessRecordStartsAgain() {
        // previous_time 0 means "none yet" to perf, so the record after a time-0 one shows 0
        assertThat(column(TimeBase.DELTA, 1_000, 0, 2_000, 2_300)).containsExactly(0, -1_000, 0, 300);
    }
}
