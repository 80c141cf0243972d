package dev.dfx.perf.text;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A fast byte-oriented text writer: chars are written as single ISO-8859-1 bytes (every string dfx reads
 * from perf.data was decoded byte for byte, so bytes round-trip unchanged), buffered in 64 KiB blocks, with
 * printf-style padding helpers for the formats perf uses. Not thread-safe; {@link #flush()} before the
 * underlying stream is used by anyone else.
 */
public final class TextSink implements AutoCloseable {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[24];
    private char[] chars = new char[256];
    private int len;

    /** @param out where bytes go; not closed by {@link #close()} */
    public TextSink(OutputStream out) {
        this.out = out;
    }

    /** Appends {@code s} (each char as one byte). */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int) is exactly "low byte of each char"
    public TextSink put(String s) {
        int n = s.length();
        if (n <= buf.length - len) {
            s.getBytes(0, n, buf, len);
            len += n;
            return this;
        }
        return put((CharSequence) s);
    }

    /** Appends {@code s}. */
    public TextSink put(CharSequence s) {
        int n = s.length();
        if (n > buf.length - len) {
            if (n > buf.length) {
                for (int i = 0; i < n; i++) {
                    put(s.charAt(i));
                }
                return this;
            }
            drain();
        }
        if (s instanceof StringBuilder sb) {
            // one bulk copy out of the builder, then a loop the JIT vectorizes, instead of a checked charAt per char
            if (chars.length < n) {
                chars = new char[Math.max(n, 2 * chars.length)];
            }
            sb.getChars(0, n, chars, 0);
            for (int i = 0; i < n; i++) {
                buf[len + i] = (byte) chars[i];
            }
            len += n;
            return this;
        }
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    /**
     * Appends {@code s} encoded as UTF-8: for text that is Unicode (a run directory's names, read from JSON), not
     * perf.data bytes decoded one char per byte, which {@link #put(String)} writes.
     */
    public TextSink putUtf8(String s) {
        return put(utf8Bytes(s));
    }

    /** {@link #putUtf8} right-aligned in {@code width} bytes, as {@code %Ns} pads a UTF-8 string in C. */
    public TextSink rightUtf8(String s, int width) {
        return right(utf8Bytes(s), width);
    }

    /** @return {@code s}'s UTF-8 bytes, one char per byte (what {@link #put(String)} writes unchanged) */
    private static String utf8Bytes(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            }
        }
        return s;
    }

    /** Appends one char. */
    public TextSink put(char c) {
        if (len == buf.length) {
            drain();
        }
        buf[len++] = (byte) c;
        return this;
    }

    /** {@code %s} right-aligned in {@code width} ({@code %Ns}). */
    public TextSink right(String s, int width) {
        for (int i = s.length(); i < width; i++) {
            put(' ');
        }
        return put(s);
    }

    /** {@code %-Ns}. */
    public TextSink left(String s, int width) {
        put(s);
        for (int i = s.length(); i < width; i++) {
            put(' ');
        }
        return this;
    }

    /** {@code %d} of a signed value. */
    public TextSink dec(long v) {
        return dec(v, 0);
    }

    /** {@code %Nd} (right-aligned decimal), without allocating. */
    public TextSink dec(long v, int width) {
        if (v == Long.MIN_VALUE) {
            return right(Long.toString(v), width);
        }
        int start = digits(Math.abs(v));
        if (v < 0) {
            digits[--start] = '-';
        }
        return padDigits(start, width, false, ' ');
    }

    /** {@code %-Nd} (left-aligned decimal), without allocating. */
    public TextSink decLeft(long v, int width) {
        if (v == Long.MIN_VALUE) {
            return left(Long.toString(v), width);
        }
        int start = digits(Math.abs(v));
        if (v < 0) {
            digits[--start] = '-';
        }
        return padDigits(start, width, true, ' ');
    }

    /** {@code %0Nd} of a non-negative value, without allocating. */
    public TextSink decZero(long v, int width) {
        return padDigits(digits(v), width, false, '0');
    }

    /** Writes the decimal digits of non-negative {@code v} at the end of the scratch; returns the first index. */
    private int digits(long v) {
        int i = digits.length;
        do {
            digits[--i] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        return i;
    }

    private TextSink padDigits(int start, int width, boolean leftAlign, char pad) {
        int n = digits.length - start;
        if (!leftAlign) {
            for (int i = n; i < width; i++) {
                put(pad);
            }
        }
        if (len + n > buf.length) {
            drain();
        }
        System.arraycopy(digits, start, buf, len, n);
        len += n;
        if (leftAlign) {
            for (int i = n; i < width; i++) {
                put(pad);
            }
        }
        return this;
    }

    /** {@code %lu} of an unsigned 64-bit value. */
    public TextSink udec(long v) {
        return put(Long.toUnsignedString(v));
    }

    /** {@code %lx}. */
    public TextSink hex(long v) {
        return put(Long.toHexString(v));
    }

    /** {@code %#lx}: {@code 0x} prefix except for 0, as C prints it. */
    public TextSink hexAlt(long v) {
        return v == 0 ? put('0') : put("0x").hex(v);
    }

    /** {@code %Nlx}, without allocating (every callchain frame prints one). */
    public TextSink hex(long v, int width) {
        int i = digits.length;
        do {
            digits[--i] = (byte) HEX[(int) (v & 0xf)];
            v >>>= 4;
        } while (v != 0);
        return padDigits(i, width, false, ' ');
    }

    /** {@code %0Nlx}. */
    public TextSink hexZero(long v, int width) {
        String s = Long.toHexString(v);
        for (int i = s.length(); i < width; i++) {
            put('0');
        }
        return put(s);
    }

    /** Two lowercase hex digits of a byte. */
    public TextSink hexByte(int b) {
        return put(HEX[(b >> 4) & 15]).put(HEX[b & 15]);
    }

    private void drain() {
        try {
            out.write(buf, 0, len);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        len = 0;
    }

    /** Writes buffered bytes and flushes the stream. */
    public void flush() {
        drain();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        flush();
    }
}
