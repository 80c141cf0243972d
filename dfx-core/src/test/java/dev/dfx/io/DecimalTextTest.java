package dev.dfx.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class DecimalTextTest {
    private static String text(long v) {
        byte[] b = new byte[DecimalText.MAX_LENGTH + 4];
        int end = DecimalText.put(b, 3, v);
        assertThat(end - 3).as("length of %d", v).isEqualTo(DecimalText.length(v));
        return new String(b, 3, end - 3, StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, -1, 9, 10, -10, 99, 100, -100, 101, 999, 1000, 1_000_000_007L,
        999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1})
    void edgesReadAsLongToStringWritesThem(long v) {
        assertThat(text(v)).isEqualTo(Long.toString(v));
    }

    @ParameterizedTest
    @ValueSource(longs = {1L, 2L, 3L})
    void everyMagnitudeAndSignMatchesLongToString(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int n = 0; n < 20_000; n++) {
            long v = random.nextLong() >> random.nextInt(64); // every magnitude, both signs
            assertThat(text(v)).isEqualTo(Long.toString(v));
        }
    }

    @Test
    void powersOfTenAndTheirNeighbours() {
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10 * 10; p *= 10) {
            for (long v : new long[] {p - 1, p, p + 1, -p, -p + 1, -p - 1}) {
                assertThat(text(v)).isEqualTo(Long.toString(v));
            }
            if (p > Long.MAX_VALUE / 10) {
                break;
            }
        }
    }

    /** The length is estimated from the bit length, so each bit length's first and last values are checked. */
    @Test
    void powersOfTwoAndTheirNeighbours() {
        for (int bit = 0; bit < 64; bit++) {
            long p = 1L << bit;
            for (long v : new long[] {p - 1, p, p + 1, -p, -p + 1, -p - 1}) {
                assertThat(text(v)).isEqualTo(Long.toString(v));
            }
        }
    }

    @Test
    void aTextThatDoesNotFitThrowsRatherThanWritingPastTheArray() {
        assertThatThrownBy(() -> DecimalText.put(new byte[4], 0, 12345)).isInstanceOf(ArrayIndexOutOfBoundsException.class);
    }
}
