package dev.dfx.perf.vpadtl;

/**
 * Converts dtl timebase ticks to the perf clock's nanoseconds exactly as perf's
 * {@code powerpc_vpadtl_timestamp} (tools/perf/util/powerpc-vpadtl.c) computes them:
 * {@code (u64)((double)(u64)(timebase - boot_tb) / (double)tb_freq * 1000000000.0)}, i.e. an unsigned 64-bit
 * subtraction, two correctly rounded u64-to-double conversions, a double division and multiplication, and a
 * truncating conversion back to u64. Results that do not fit a u64 (a timebase below {@code boot_tb} wraps the
 * subtraction) saturate to {@code 2^64-1}, as the conversion does on powerpc, where perf decodes vpa-dtl data.
 * Immutable and thread-safe.
 *
 * @param bootTb timebase at boot, ticks (unsigned), from the {@code boottb_freq} record
 * @param tbFreq timebase ticks per second (unsigned, non-zero), from the same record
 */
public record Timebase(long bootTb, long tbFreq) {
    private static final double TWO_63 = 0x1p63;

    /** @throws IllegalArgumentException when {@code tbFreq} is 0 */
    public Timebase {
        if (tbFreq == 0) {
            throw new IllegalArgumentException("tb_freq 0");
        }
    }

    /**
     * @param timebase an entry's timebase, ticks (unsigned)
     * @return nanoseconds on the perf clock (unsigned); 0 for timebase 0, as perf
     */
    public long nanos(long timebase) {
        if (timebase == 0) {
            return 0;
        }
        double div = unsignedToDouble(timebase - bootTb) / unsignedToDouble(tbFreq);
        return doubleToUnsigned(div * 1000000000.0);
    }

    /** C's {@code (double)} of a u64: round to nearest even (a sticky low bit keeps values >= 2^63 exact). */
    static double unsignedToDouble(long v) {
        if (v >= 0) {
            return v;
        }
        return ((double) ((v >>> 1) | (v & 1))) * 2.0;
    }

    /** C's {@code (u64)} of a non-negative double: truncation; values of 2^64 and more saturate. */
    static long doubleToUnsigned(double d) {
        if (d < TWO_63) {
            return (long) d;
        }
        if (d >= 2 * TWO_63) {
            return -1L;
        }
        return ((long) (d - TWO_63)) ^ Long.MIN_VALUE;
    }
}
