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
        return new BigDecimal(d).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
    }
}
