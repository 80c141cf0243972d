package dev.dfx.perf.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NumbersTest {
    /** glibc's printf("%.2f") of these values (the exact binary value rounded, ties to even). */
    @Test
    void roundsTheBinaryValueTiesToEven() {
        assertEquals("0.12", Numbers.fixed(0.125, 2)); // a tie: to the even hundredth
        assertEquals("0.38", Numbers.fixed(0.375, 2));
        assertEquals("2.67", Numbers.fixed(2.675, 2)); // 2.67499999999999982236431605997495353221893310546875
        assertEquals("0.01", Numbers.fixed(0.005, 2)); // 0.005000000000000000104083408558608425664715468883514404296875
        assertEquals("100.00", Numbers.fixed(99.995, 2)); // 99.9950000000000045474735088646411895751953125
        assertEquals("99.99", Numbers.fixed(99.99, 2));
        assertEquals("0.2", Numbers.fixed(0.25, 1));
        assertEquals("2", Numbers.fixed(2.5, 0));
        assertEquals("-1.50", Numbers.fixed(-1.5, 2));
        assertEquals("0.000", Numbers.fixed(4.9e-324, 3));
    }

    /** BigDecimal prints no negative zero, and dfx's report printed its text: a value rounding to 0 has no sign. */
    @Test
    void noSignOnZero() {
        assertEquals("0.00", Numbers.fixed(-0.0, 2));
        assertEquals("0.00", Numbers.fixed(-0.001, 2));
        assertEquals("-0.01", Numbers.fixed(-0.005, 2));
    }

    /** The long arithmetic gives BigDecimal's digits over the magnitudes and precisions it handles. */
    @Test
    void sameDigitsAsBigDecimal() {
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            double d = switch (i % 4) {
                case 0 -> r.nextDouble() * 100;
                case 1 -> Math.scalb(r.nextDouble(), r.nextInt(-80, 53)) * (r.nextBoolean() ? 1 : -1);
                case 2 -> Math.round(r.nextDouble() * 100_000) / 1000.0 + 0.0005; // near ties
                default -> Double.longBitsToDouble(r.nextLong() & Long.MAX_VALUE);
            };
            for (int digits = 0; digits <= 4; digits++) {
                String want = Double.isFinite(d)
                    ? new BigDecimal(d).setScale(digits, RoundingMode.HALF_EVEN).toPlainString() : null;
                if (want != null) {
                    assertEquals(want, Numbers.fixed(d, digits), d + " with " + digits + " decimals");
                }
            }
        }
    }
}
