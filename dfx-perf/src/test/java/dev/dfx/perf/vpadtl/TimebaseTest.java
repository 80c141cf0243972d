package dev.dfx.perf.vpadtl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Timebase to ns as perf computes it. Expected values were computed with IEEE-754 doubles outside Java (Python's
 * float, which is C's double: {@code int(float(diff) / float(freq) * 1e9)}); the first is also what perf printed
 * in Documentation/arch/powerpc/vpa-dtl.rst (timebase 21403600706628832 shown at 105373.359913 s with the
 * boot_tb/tb_freq of the same page).
 */
class TimebaseTest {
    @ParameterizedTest(name = "tb {0} boot {1} freq {2} -> {3} ns")
    @CsvSource({
        // the documentation's example
        "21403600706628832, 21349649546353231, 512000000, 105373359913283",
        // double rounding: exact arithmetic gives 4100000000, perf's double arithmetic 4099999999
        "41, 0, 10, 4099999999",
        // a difference of 2^63 + 12345 ticks: u64 -> double above 2^63 and double -> u64 above 2^63
        "9223372036854788153, 0, 512000000, 18014398509482010624",
        // timebase below boot_tb: the unsigned difference wraps, the result saturates
        "1000, 2000, 512000000, 18446744073709551615",
        // one tick at 512 MHz is 1.953125 ns, truncated
        "1001, 1000, 512000000, 1"})
    void convertsAsPerf(String timebase, String bootTb, String freq, String nanos) {
        Timebase t = new Timebase(Long.parseUnsignedLong(bootTb), Long.parseUnsignedLong(freq));
        assertThat(Long.toUnsignedString(t.nanos(Long.parseUnsignedLong(timebase)))).isEqualTo(nanos);
    }

    @Test
    void zeroTimebaseIsTimeZero() {
        assertThat(new Timebase(5, 512000000).nanos(0)).isZero();
    }

    @Test
    void unsignedToDoubleRoundsToNearestEven() {
        // doubles near 2^63 are 2048 apart: +1025 rounds up, +1024 is a tie and goes to the even 2^63
        assertThat(Timebase.unsignedToDouble(Long.MIN_VALUE + 1025)).isEqualTo(0x1p63 + 2048);
        assertThat(Timebase.unsignedToDouble(Long.MIN_VALUE + 1024)).isEqualTo(0x1p63);
        assertThat(Timebase.unsignedToDouble(-1L)).isEqualTo(0x1p64);
    }

    @Test
    void zeroFrequencyIsRefused() {
        assertThatThrownBy(() -> new Timebase(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
