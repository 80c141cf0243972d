package dev.dfx.region;

import java.math.BigInteger;

/**
 * How TSC ticks convert to CLOCK_MONOTONIC ns for one region: two (ticks, ns) points a producer measured when it
 * first used the TSC, and the conversion derived from them exactly as perf's {@code TIME_CONV} states one:
 * {@code ns = ns0 + ((ticks - ticks0) * mult) >> shift}, with {@code mult = ((ns1 - ns0) << shift) / (ticks1 -
 * ticks0)} (integer division), {@code shift = 32}. Kept in run.json so the conversion can be redone. Immutable.
 *
 * @param ticks0 first point's TSC value
 * @param ns0    first point's CLOCK_MONOTONIC ns
 * @param ticks1 second point's TSC value, {@code > ticks0}
 * @param ns1    second point's ns, {@code > ns0}
 * @param mult   ns per tick, scaled by {@code 2^shift}
 * @param shift  the scale, 32
 */
public record TscCalibration(long ticks0, long ns0, long ticks1, long ns1, long mult, int shift) {
    /** The scale of {@link #mult()}. */
    public static final int SHIFT = 32;
    /** Slowest plausible TSC (1 MHz): a calibration claiming less is refused. */
    static final double MIN_HZ = 1e6;
    /** Fastest plausible TSC (100 GHz). */
    static final double MAX_HZ = 1e11;

    /**
     * Derives the conversion from two points, or says why they cannot be used.
     *
     * @return the calibration
     * @throws IllegalArgumentException naming the fields when the points are not increasing or the rate is outside
     *                                  1 MHz..100 GHz
     */
    public static TscCalibration of(long ticks0, long ns0, long ticks1, long ns1) {
        long dt = ticks1 - ticks0;
        long dn = ns1 - ns0;
        if (dt <= 0 || dn <= 0) {
            throw new IllegalArgumentException("TSC calibration points (" + ticks0 + " ticks, " + ns0 + " ns) and ("
                    + ticks1 + " ticks, " + ns1 + " ns) do not increase");
        }
        double hz = dt * 1e9 / dn;
        if (hz < MIN_HZ || hz > MAX_HZ) {
            throw new IllegalArgumentException("TSC calibration gives " + hz + " Hz, outside 1 MHz..100 GHz");
        }
        long mult = BigInteger.valueOf(dn).shiftLeft(SHIFT).divide(BigInteger.valueOf(dt)).longValueExact();
        return new TscCalibration(ticks0, ns0, ticks1, ns1, mult, SHIFT);
    }

    /** @return the TSC frequency the points give, Hz */
    public double hz() {
        return (ticks1 - ticks0) * 1e9 / (ns1 - ns0);
    }

    /** @return CLOCK_MONOTONIC ns of a TSC value */
    public long toNs(long ticks) {
        return ns0 + scale(ticks - ticks0);
    }

    /** @return a tick count (may be negative) as ns: {@code (ticks * mult) >> shift}, exact in 128 bits */
    public long scale(long ticks) {
        long hi = Math.multiplyHigh(ticks, mult);
        long lo = ticks * mult;
        return (hi << (64 - shift)) | (lo >>> shift);
    }
}
