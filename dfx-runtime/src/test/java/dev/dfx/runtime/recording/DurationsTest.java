package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
    @Test
    void unitsAndTheBareNumberInSeconds() {
        assertThat(Durations.parse("--backstop", "30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("--backstop", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("--backstop", "100us")).isEqualTo(Duration.ofNanos(100_000));
        assertThat(Durations.parse("--backstop", "7ns")).isEqualTo(Duration.ofNanos(7));
        assertThat(Durations.parse("--backstop", "2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("--backstop", "10")).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void badDurationsNameTheOption() {
        assertThatThrownBy(() -> Durations.parse("--backstop", "-1s")).isInstanceOf(BadInputException.class)
                .hasMessage("option --backstop: '-1s' is not a duration; expected e.g. 30s, 1.5s, 500ms, 100us, 2m, 1h");
        assertThatThrownBy(() -> Durations.parse("--backstop", "0ms")).isInstanceOf(BadInputException.class)
                .hasMessage("option --backstop: the duration must be greater than zero, got 0ms");
        assertThatThrownBy(() -> Durations.parse("--backstop", "99999999999999999999s"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("is too large");
        // fits a long of seconds, not of nanoseconds: refused here, not an ArithmeticException later
        assertThatThrownBy(() -> Durations.parse("--backstop", "99999999999999s"))
                .isInstanceOf(BadInputException.class)
                .hasMessage("option --backstop: '99999999999999s' is too large; at most 9223372036s (2^63-1 ns,"
                        + " 292 years)");
        assertThat(Durations.parse("--backstop", "9223372036s").toNanos()).isEqualTo(9_223_372_036_000_000_000L);
    }

    /** Fractions (1.5s), the unit h, units in any case; an overflow is "too large", not "not a duration". */
    @Test
    void fractionsHoursAnyCaseAndOverflowSaysTooLarge() {
        assertThat(Durations.parse("--backstop", "1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("--backstop", "0.25ms")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Durations.parse("--backstop", ".5m")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("--backstop", "2.")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Durations.parse("--backstop", "1h")).isEqualTo(Duration.ofMinutes(60));
        assertThat(Durations.parse("--backstop", "500MS")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("--backstop", "30S")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("--backstop", "2562047.78h").toNanos()).isEqualTo(9_223_372_008_000_000_000L);
        assertThatThrownBy(() -> Durations.parse("--backstop", "99999999999h")).isInstanceOf(BadInputException.class)
                .hasMessage("option --backstop: '99999999999h' is too large; at most 9223372036s (2^63-1 ns,"
                        + " 292 years)");
        assertThatThrownBy(() -> Durations.parse("--backstop", "1.5ns")).isInstanceOf(BadInputException.class)
                .hasMessage("option --backstop: '1.5ns' is not a whole number of nanoseconds");
        assertThatThrownBy(() -> Durations.parse("--backstop", "0.0s")).isInstanceOf(BadInputException.class)
                .hasMessage("option --backstop: the duration must be greater than zero, got 0.0s");
        assertThatThrownBy(() -> Durations.parse("--backstop", "1.5.s")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("is not a duration");
    }

    /** Whole numbers at the edges of 64-bit ns: the same answers and messages as a fraction's. */
    @Test
    void wholeNumbersAtTheEdgesOfALongOfNanoseconds() {
        assertThat(Durations.parse("--backstop", "9223372036854775807ns").toNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(Durations.parse("--backstop", "0000000000000000000000007us").toNanos()).isEqualTo(7_000);
        for (String big : new String[] {"9223372036854775808ns", "9223372036854776us", "9223372037s",
            "153722868m", "2562048h"}) {
            assertThatThrownBy(() -> Durations.parse("--backstop", big)).isInstanceOf(BadInputException.class)
                    .hasMessage("option --backstop: '" + big + "' is too large; at most 9223372036s (2^63-1 ns,"
                            + " 292 years)");
        }
        assertThat(Durations.parse("--backstop", "153722867m").toNanos()).isEqualTo(153_722_867L * 60_000_000_000L);
        assertThatThrownBy(() -> Durations.parse("--backstop", "0000000000000000000000000h"))
                .isInstanceOf(BadInputException.class)
                .hasMessage("option --backstop: the duration must be greater than zero, got 0000000000000000000000000h");
    }

    @Test
    void textUsesTheLargestUnitThatDividesExactly() {
        assertThat(Durations.text(Duration.ofMinutes(1))).isEqualTo("1m");
        assertThat(Durations.text(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.text(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.text(Duration.ofNanos(100_000))).isEqualTo("100us");
        assertThat(Durations.text(Duration.ofNanos(7))).isEqualTo("7ns");
        assertThat(Durations.text(Duration.ZERO)).isEqualTo("0ns");
    }
}
