package dev.dfx.perf.text;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** C's {@code %.Nf} for doubles: the exact binary value rounded half-even, as glibc prints it. Stateless. */
public final class Numbers {
    private Numbers() {
    }

    /** @return {@code d} with {@code digits} decimals, e.g. {@code fixed(0.25, 1)} is {@code "0.2"} */
    public static String fixed(double d, int digits) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (digits >= 0 && digits <= EXACT_DIGITS && Math.abs(d) < EXACT_BELOW) {
            return exact(d, digits);
        }
        return new BigDecimal(d).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** Up to this many decimals, {@code mantissa * 10^digits} fits a long (53 + 10 bits). */
    private static final int EXACT_DIGITS = 3;
    /** Below this magnitude the binary value has a fraction part to round (2^52 and above are integers). */
    private static final double EXACT_BELOW = 0x1p52;
    private static final long[] TENS = {1, 10, 100, 1000};

    /**
     * {@link #fixed} in long arithmetic, the same digits as BigDecimal's without its tables (whose start-up is
     * tens of milliseconds for a report that prints a few percentages): {@code |d| = m * 2^-shift} exactly, so
     * {@code |d| * 10^digits} is {@code m * 10^digits} shifted right, its remainder compared with half of
     * {@code 2^shift}, ties to the even neighbour. No minus sign where the rounded value is zero (as BigDecimal).
     */
    private static String exact(double d, int digits) {
        long bits = Double.doubleToRawLongBits(d) & Long.MAX_VALUE;
        int exponent = (int) (bits >>> 52);
        long mantissa = bits & ((1L << 52) - 1);
        if (exponent == 0) {
            exponent = 1; // subnormal
        } else {
            mantissa |= 1L << 52;
        }
        int shift = 1075 - exponent; // above 0: |d| < 2^52
        long scaled = mantissa * TENS[digits];
        long q;
        if (shift >= 64) {
            q = 0; // scaled < 2^63 <= half of 2^shift
        } else {
            q = scaled >>> shift;
            long rest = scaled - (q << shift);
            long half = 1L << (shift - 1);
            if (rest > half || rest == half && (q & 1) == 1) {
                q++;
            }
        }
        StringBuilder out = new StringBuilder(24);
        if (q != 0 && d < 0) {
            out.append('-');
        }
        out.append(q / TENS[digits]);
        if (digits > 0) {
            String frac = Long.toString(q % TENS[digits]);
            out.append('.');
            for (int i = frac.length(); i < digits; i++) {
                out.append('0');
            }
            out.append(frac);
        }
        return out.toString();
    }
}
