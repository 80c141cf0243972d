package dev.dfx.perf.text;

import dev.dfx.io.DecimalText;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A fast byte-oriented text writer: chars are written as single ISO-8859-1 bytes (every string dfx reads
 * from perf.data was decoded byte for byte, so bytes round-trip unchanged), buffered in 64 KiB blocks, with
 * printf-style padding helpers for the formats perf uses. Not thread-safe; {@link #flush()} before the
 * underlying stream is used by anyone else.
 */
public final class TextSink implements AutoCloseable {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Eight bytes in memory order: the first byte is the lowest. */
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Eight bytes of a byte array at any index, in memory order. */
    private static final VarHandle BUF_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
        ByteOrder.LITTLE_ENDIAN);

    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[24];
    private char[] chars = new char[256];
    private int len;

    /**
     * Reads once through this class's layouts, as {@link dev.dfx.perf.data.Endian#prepareReads()} does through
     * the reader's (which says why). Thread-safe; any number of calls.
     */
    public static void prepareReads() {
        byte[] bytes = new byte[8];
        BUF_LONGS.set(bytes, 0, MemorySegment.ofArray(bytes).get(LONG_LE, 0));
    }

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
        return repeat(' ', width - s.length()).put(s);
    }

    /** {@code %-Ns}. */
    public TextSink left(String s, int width) {
        return put(s).repeat(' ', width - s.length());
    }

    /** {@code %d} of a signed value. */
    public TextSink dec(long v) {
        room(DecimalText.MAX_LENGTH);
        len = DecimalText.put(buf, len, v);
        return this;
    }

    /** {@code %Nd} (right-aligned decimal), without allocating. */
    public TextSink dec(long v, int width) {
        return repeat(' ', width - DecimalText.length(v)).dec(v);
    }

    /** {@code %-Nd} (left-aligned decimal), without allocating. */
    public TextSink decLeft(long v, int width) {
        return dec(v).repeat(' ', width - DecimalText.length(v));
    }

    /** {@code %0Nd} of a non-negative value, without allocating. */
    public TextSink decZero(long v, int width) {
        return repeat('0', width - DecimalText.length(v)).dec(v);
    }

    /** Appends {@code n} copies of {@code c}; nothing when {@code n <= 0}. */
    private TextSink repeat(char c, int n) {
        if (n <= 0) {
            return this;
        }
        if (n > buf.length - len) {
            for (int i = 0; i < n; i++) {
                put(c);
            }
            return this;
        }
        Arrays.fill(buf, len, len + n, (byte) c);
        len += n;
        return this;
    }

    /** Makes room for {@code n <= buf.length} more bytes. */
    private void room(int n) {
        if (n > buf.length - len) {
            drain();
        }
    }

    /**
     * Appends the bytes of {@code seg} from {@code offset} up to the first NUL byte or {@code max} bytes, whichever
     * comes first ({@code %s} of a C string), without making a String of them.
     *
     * @param seg    the bytes; {@code offset + max} must not pass its end
     * @param offset where the string starts
     * @param max    the most bytes to read
     */
    public TextSink putCString(MemorySegment seg, long offset, int max) {
        if (max + 8 > buf.length - len) {
            drain();
            if (max + 8 > buf.length) {
                for (int i = 0; i < max; i++) {
                    byte b = seg.get(ValueLayout.JAVA_BYTE, offset + i);
                    if (b == 0) {
                        break;
                    }
                    put((char) (b & 0xff));
                }
                return this;
            }
        }
        // eight bytes per read and write (a comm field is two); the word holding the NUL is written whole, its bytes
        // after the NUL left past the end (the room for them is made above). The lowest byte the zero-byte test flags
        // is the first NUL.
        int n = 0;
        while (n <= max - 8) {
            long w = seg.get(LONG_LE, offset + n);
            BUF_LONGS.set(buf, len + n, w);
            long zeros = (w - 0x0101_0101_0101_0101L) & ~w & 0x8080_8080_8080_8080L;
            if (zeros != 0) {
                len += n + (Long.numberOfTrailingZeros(zeros) >>> 3);
                return this;
            }
            n += 8;
        }
        for (; n < max; n++) {
            byte b = seg.get(ValueLayout.JAVA_BYTE, offset + n);
            if (b == 0) {
                break;
            }
            buf[len + n] = b;
        }
        len += n;
        return this;
    }

    /** {@code %lu} of an unsigned 64-bit value. */
    public TextSink udec(long v) {
        return v >= 0 ? dec(v) : put(Long.toUnsignedString(v));
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
        int n = digits.length - i;
        repeat(' ', width - n);
        room(n);
        System.arraycopy(digits, i, buf, len, n);
        len += n;
        return this;
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
