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

    /** {@code "00".."99"}: the two digits of {@code n} at {@code 2n} and {@code 2n+1}. */
    private static final byte[] PAIRS = new byte[200];

    static {
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
        int digits = 1;
        long bound = 10;
        while (digits < 19 && v >= bound) {
            digits++;
            bound *= 10;
        }
        return sign + digits;
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
        while (v <= -100) {
            long q = v / 100;
            int pair = (int) (q * 100 - v);
            v = q;
            dst[--i] = PAIRS[2 * pair + 1];
            dst[--i] = PAIRS[2 * pair];
        }
        int last = (int) -v;
        if (last >= 10) {
            dst[--i] = PAIRS[2 * last + 1];
            dst[--i] = PAIRS[2 * last];
        } else {
            dst[--i] = (byte) ('0' + last);
        }
        return end;
    }
}
