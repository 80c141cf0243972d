package dev.dfx.perf.symbol.demangle;

import java.io.ByteArrayOutputStream;

/**
 * The punycode of Rust v0 identifiers (RFC 3492's bootstring with base 36, digits {@code a-z0-9}), decoded as
 * libiberty's Rust demangler decodes it: code points are inserted with size_t and 32-bit arithmetic as libiberty
 * does (wrapping where it wraps) and written as UTF-8 bytes without checking that they are Unicode scalar values.
 * Stateless and thread-safe.
 */
final class Punycode {
    /** The result for a delta digit outside {@code a-z0-9}: the whole name fails. */
    static final byte[] INVALID = new byte[0];

    private static final long BASE = 36;
    private static final long T_MIN = 1;
    private static final long T_MAX = 26;
    private static final long SKEW = 38;
    private static final long INITIAL_BIAS = 72;
    private static final int INITIAL_N = 0x80;

    private Punycode() {
    }

    /**
     * @param s                       the characters (one byte each)
     * @param asciiStart              start of the ASCII part
     * @param asciiEnd                end of the ASCII part
     * @param punyStart               start of the deltas
     * @param punyEnd                 end of the deltas (after {@code punyStart})
     * @return the identifier's UTF-8 bytes; {@code null} when the deltas end inside a delta (libiberty then prints
     *         nothing for the identifier and carries on); {@link #INVALID} for a character that is no digit
     */
    static byte[] decode(String s, int asciiStart, int asciiEnd, int punyStart, int punyEnd) {
        int len = asciiEnd - asciiStart;
        // each slot holds the 4 bytes libiberty stores for a code point, zero bytes dropped at the end
        int[] slots = new int[len + (punyEnd - punyStart)];
        for (int k = 0; k < len; k++) {
            slots[k] = s.charAt(asciiStart + k);
        }
        long bias = INITIAL_BIAS;
        long damp = 700;
        long i = 0;
        int c = INITIAL_N;
        int pos = punyStart;
        while (pos < punyEnd) {
            long delta = 0;
            long w = 1;
            long k = 0;
            long d;
            long t;
            do {
                k += BASE;
                t = Long.compareUnsigned(k, bias) < 0 ? 0 : k - bias;
                t = Long.compareUnsigned(t, T_MIN) < 0 ? T_MIN : Long.compareUnsigned(t, T_MAX) > 0 ? T_MAX : t;
                if (pos >= punyEnd) {
                    return null;
                }
                char ch = s.charAt(pos++);
                if (ch >= 'a' && ch <= 'z') {
                    d = ch - 'a';
                } else if (ch >= '0' && ch <= '9') {
                    d = 26 + (ch - '0');
                } else {
                    return INVALID;
                }
                delta += d * w;
                w *= BASE - t;
            } while (d >= t);
            len++;
            i += delta;
            c += (int) Long.divideUnsigned(i, len);
            i = Long.remainderUnsigned(i, len);
            int at = (int) i;
            System.arraycopy(slots, at, slots, at + 1, len - at - 1);
            slots[at] = utf8(c);
            if (pos == punyEnd) {
                break;
            }
            i++;
            delta = Long.divideUnsigned(delta, damp);
            damp = 2;
            delta += Long.divideUnsigned(delta, len);
            k = 0;
            while (Long.compareUnsigned(delta, ((BASE - T_MIN) * T_MAX) / 2) > 0) {
                delta = Long.divideUnsigned(delta, BASE - T_MIN);
                k += BASE;
            }
            bias = k + Long.divideUnsigned((BASE - T_MIN + 1) * delta, delta + SKEW);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(len * 3);
        for (int n = 0; n < len; n++) {
            for (int shift = 24; shift >= 0; shift -= 8) {
                int b = slots[n] >>> shift & 0xff;
                if (b != 0) {
                    out.write(b);
                }
            }
        }
        return out.toByteArray();
    }

    /** @return the 4 bytes libiberty writes for a code point (unsigned 32-bit), zero bytes where it writes none */
    private static int utf8(int c) {
        int b0 = Integer.compareUnsigned(c, 0x10000) >= 0 ? (0xf0 | c >>> 18) & 0xff : 0;
        int b1 = Integer.compareUnsigned(c, 0x800) >= 0
            ? ((Integer.compareUnsigned(c, 0x10000) < 0 ? 0xe0 : 0x80) | (c >>> 12 & 0x3f)) : 0;
        int b2 = (Integer.compareUnsigned(c, 0x800) < 0 ? 0xc0 : 0x80) | (c >>> 6 & 0x3f);
        int b3 = 0x80 | (c & 0x3f);
        return b0 << 24 | b1 << 16 | b2 << 8 | b3;
    }
}
