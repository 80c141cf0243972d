package dev.dfx.perf.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * perf's {@code --time} ranges, each case worked out by hand from {@code util/time-utils.c} (perf 6.1): the bounds
 * are inclusive, a sample of time 0 is never skipped, and percent forms take shares of the span between the first
 * and the last sample (here 1000 ns and 2000 ns: 1 % is 10 ns), a share's end one ns short of the next share.
 */
class TimeRangesTest {
    private static final long FIRST = 1000;
    private static final long LAST = 2000;
    private static final long S = 1_000_000_000L;

    private static TimeRanges parse(String text) {
        return TimeRanges.parse(text, FIRST, LAST);
    }

    @Test
    void secondsWithDecimalsAreInclusiveBounds() {
        TimeRanges r = parse("1.5,1.6");
        assertThat(r.skip(1_499_999_999L)).isTrue();
        assertThat(r.skip(1_500_000_000L)).isFalse();
        assertThat(r.skip(1_600_000_000L)).isFalse();
        assertThat(r.skip(1_600_000_001L)).isTrue();
        assertThat(r.text()).isEqualTo("1.5,1.6");
    }

    @Test
    void eitherSideMayBeOpen() {
        TimeRanges from = parse("2,");
        assertThat(from.skip(2 * S - 1)).isTrue();
        assertThat(from.skip(Long.MAX_VALUE)).isFalse();
        TimeRanges until = parse(",2");
        assertThat(until.skip(1)).isFalse();
        assertThat(until.skip(2 * S + 1)).isTrue();
    }

    @Test
    void aSampleWithoutTimeIsNeverSkipped() {
        assertThat(parse("5,6").skip(0)).isFalse();
        assertThat(parse("10%/2").skip(0)).isFalse();
    }

    @Test
    void nineDecimalsAreNanoseconds() {
        TimeRanges r = parse("1.000000001,1.000000002");
        assertThat(r.skip(S)).isTrue();
        assertThat(r.skip(S + 1)).isFalse();
        assertThat(r.skip(S + 2)).isFalse();
        assertThat(r.skip(S + 3)).isTrue();
    }

    @Test
    void severalRangesSeparatedBySpaces() {
        TimeRanges r = parse("1.5,1.6 2.0,2.1");
        assertThat(r.skip(1_550_000_000L)).isFalse();
        assertThat(r.skip(1_700_000_000L)).isTrue();
        assertThat(r.skip(2_050_000_000L)).isFalse();
        assertThat(r.skip(2_100_000_001L)).isTrue();
    }

    @Test
    void aShareOfTheSpan() {
        TimeRanges second = parse("10%/2"); // [1100, 1199]
        assertThat(second.skip(1099)).isTrue();
        assertThat(second.skip(1100)).isFalse();
        assertThat(second.skip(1199)).isFalse();
        assertThat(second.skip(1200)).isTrue();
        TimeRanges dash = parse("0%-10%"); // [1000, 1099]
        assertThat(dash.skip(1000)).isFalse();
        assertThat(dash.skip(1099)).isFalse();
        assertThat(dash.skip(1100)).isTrue();
        TimeRanges half = parse("50%"); // the first half: [1000, 1499]
        assertThat(half.skip(1499)).isFalse();
        assertThat(half.skip(1500)).isTrue();
        TimeRanges tenth = parse("10%"); // the first tenth: [1000, 1099]
        assertThat(tenth.skip(1099)).isFalse();
        assertThat(tenth.skip(1100)).isTrue();
    }

    @Test
    void theLastShareKeepsTheLastSample() {
        TimeRanges all = parse("100%"); // its end is the last sample itself, not one ns before it
        assertThat(all.skip(LAST)).isFalse();
        assertThat(all.skip(LAST + 1)).isTrue();
    }

    @Test
    void severalSharesSeparatedByCommas() {
        TimeRanges r = parse("10%/2,10%/4"); // [1100, 1199] and [1300, 1399]
        assertThat(r.skip(1150)).isFalse();
        assertThat(r.skip(1250)).isTrue();
        assertThat(r.skip(1399)).isFalse();
        assertThat(r.skip(1400)).isTrue();
    }

    @Test
    void percentFormsAreRelative() {
        assertThat(TimeRanges.relative("10%/2")).isTrue();
        assertThat(TimeRanges.relative("1.5,1.6")).isFalse();
    }

    @ParameterizedTest(name = "perf: Invalid time string: \"{0}\"")
    @ValueSource(strings = {"abc", "1.5", "2,1", "1,2 1.5,3", "1.1234567890,2", "1x,2", "1,2,3", "150%", "0%/1",
        "10%/x", "-5%-10%", "10%-abc", "%"})
    void notATimeRange(String text) {
        assertThatThrownBy(() -> parse(text)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("'" + text + "' is not a time range");
    }

    @Test
    void aStartAfterItsStopIsNamed() {
        assertThatThrownBy(() -> parse("5,1")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("'5,1' is not a time range: the start 5 s is after the stop 1 s; expected START,STOP with"
                + " START <= STOP");
        assertThatThrownBy(() -> parse("1,2 5.5,3")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("'1,2 5.5,3' is not a time range: the start 5.5 s is after the stop 3 s; expected START,STOP"
                + " with START <= STOP");
    }
}
