package dev.dfx.io;

/**
 * Signed 64-bit integers as ASCII decimal into a byte array, as {@link Long#toString(long)} spells them (a leading
 * {@code -} for negative values, no leading zeros, {@code 0} for zero), without creating a {@code String}: writers of
 * JSON and text outputs emit millions of integers and the text form was their largest cost. Two digits are taken per
 * division from a 200-byte table.
 *
 * <p>Stateless; thread-safe. Callers make room: at most {@link #MAX_LENGTH} bytes are written.
 */
public final class DecimalText {
    /** The longest text of a {@code long}: {@code -9223372036854775808}, 20 bytes. */
    public static final int MAX_LENGTH = 20;

    /** {@code 10^i} at {@code i}, for i = 0..18 (every power of ten a {@code long} holds). */
    private static final long[] POWERS_OF_TEN = new long[19];

    /** {@code "00".."99"}: the two digits of {@code n} at {@code 2n} and {@code 2n+1}. */
    private static final byte[] PAIRS = new byte[200];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = 10 * POWERS_OF_TEN[i - 1];
        }
        for (int n = 0; n < 100; n++) {
            PAIRS[2 * n] = (byte) ('0' + n / 10);
            PAIRS[2 * n + 1] = (byte) ('0' + n % 10);
        }
    }

    private DecimalText() {
    }

    /**
     * @param v any value
     * @return how many bytes {@link #put} writes for {@code v}: 1 to 20
     */
    public static int length(long v) {
        int sign = 0;
        if (v < 0) {
            sign = 1;
            if (v == Long.MIN_VALUE) {
                return MAX_LENGTH;
            }
            v = -v;
        }
        if (v < 10) {
            return sign + 1;
        }
        // a value of b bits has t or t + 1 digits, t = floor(b * 1233 / 4096) (1233 / 4096 is log10(2) to five
        // digits); one comparison with 10^t says which, instead of a loop over the digits
        int t = (64 - Long.numberOfLeadingZeros(v)) * 1233 >>> 12;
        return sign + t + (v >= POWERS_OF_TEN[t] ? 1 : 0);
    }

    /**
     * Writes {@code v} in decimal at {@code dst[at]}.
     *
     * @param dst the array; {@code length(v)} bytes from {@code at} must fit
     * @param at the index of the first byte
     * @param v any value
     * @return the index after the last byte written
     * @throws ArrayIndexOutOfBoundsException when the text does not fit (nothing is guaranteed written then)
     */
    public static int put(byte[] dst, int at, long v) {
        int end = at + length(v);
        int i = end;
        if (v < 0) {
            dst[at] = '-';
        } else {
            v = -v; // digits come from the negative value, which also holds Long.MIN_VALUE
        }
        while (v < Integer.MIN_VALUE) {
            long q = v / 100;
            int pair = (int) (q * 100 - v);
            v = q;
            dst[--i] = PAIRS[2 * pair + 1];
            dst[--i] = PAIRS[2 * pair];
        }
        // the rest (most values whole) in 32-bit divisions, which are cheaper than 64-bit ones
        int w = (int) v;
        while (w <= -100) {
            int q = w / 100;
            int pair = q * 100 - w;
            w = q;
            dst[--i] = PAIRS[2 * pair + 1];
            dst[--i] = PAIRS[2 * pair];
        }
        int last = -w;
        if (last >= 10) {
            dst[--i] = PAIRS[2 * last + 1];
            dst[--i] = PAIRS[2 * last];
        } else {
            dst[--i] = (byte) ('0' + last);
        }
        return end;
    }
}
