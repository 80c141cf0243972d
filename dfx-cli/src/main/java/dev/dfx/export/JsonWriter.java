package dev.dfx.export;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Streams JSON tokens as UTF-8 into a byte buffer that is written to an output stream whenever it fills: objects,
 * arrays, names, strings, numbers and trace timestamps ({@link TraceTime}), with the commas and colons between them
 * placed by the writer. What a trace writer emits per event; it allocates nothing per token.
 *
 * <p>Text is written as Jackson's {@code UTF8JsonGenerator} writes it with its default settings, byte for byte:
 * {@code "} and {@code \} escaped with a backslash, the control characters U+0000-U+001F as {@code \b \t \n \f \r}
 * or <code>&#92;u00XX</code> (upper-case hex), every other character below U+D800 or above U+DFFF as UTF-8, and each UTF-16
 * surrogate, paired or lone, as its own <code>&#92;uXXXX</code> escape (a lone surrogate, which no UTF-8 byte sequence can
 * hold, so stays readable and lossless). Doubles are {@link Double#toString} text; NaN and the infinities, which
 * JSON numbers cannot express, are written as strings ({@code "NaN"}), as Jackson does by default. Format: RFC 8259.
 *
 * <p>Nesting is at most {@value #MAX_DEPTH} levels. The caller keeps the token grammar (a name before each value
 * inside an object); the writer does not check it. Not thread-safe: one writer thread. {@link IOException}s of the
 * output are rethrown as {@link UncheckedIOException}.
 */
public final class JsonWriter {
    /** Deepest nesting of objects and arrays. */
    public static final int MAX_DEPTH = 63;
    /** Longest {@link Text}, in bytes encoded. */
    public static final int MAX_TEXT = 1024;
    private static final int BUFFER = 1 << 16;
    /** Room that one token other than a string needs at most (a long, a double's text, a timestamp). */
    private static final int TOKEN = 32;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Per ASCII character: 0 written as is, -1 <code>&#92;u00XX</code>, else the letter after the backslash. */
    private static final byte[] ESCAPES = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ESCAPES[c] = -1;
        }
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\f'] = 'f';
        ESCAPES['\n'] = 'n';
        ESCAPES['\r'] = 'r';
    }

    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    /** Nesting depth: 0 at the top level. */
    private int depth;
    /** Bit d set: the container at depth d holds a value already, so the next one needs a comma. */
    private long filled;
    /** A name was written and its value is next (no comma before it). */
    private boolean afterName;

    /**
     * A string encoded once, quoted and escaped, for names and values that every event repeats (a trace event's keys,
     * its phase): writing it is one array copy. Immutable, thread-safe.
     */
    public static final class Text {
        private final byte[] quoted;

        private Text(byte[] quoted) {
            this.quoted = quoted;
        }
    }

    /**
     * @return {@code s} encoded as {@link #value(String)} would write it
     * @throws IllegalArgumentException when the encoded text is longer than {@value #MAX_TEXT} bytes
     */
    public static Text text(String s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JsonWriter w = new JsonWriter(bytes);
        w.value(s).flush();
        if (bytes.size() > MAX_TEXT) {
            throw new IllegalArgumentException("a JSON text encoded once is at most " + MAX_TEXT + " bytes, not "
                    + bytes.size());
        }
        return new Text(bytes.toByteArray());
    }

    /** @param out where the bytes go; written in blocks of up to 64 KiB, flushed and closed by {@link #close()} */
    public JsonWriter(OutputStream out) {
        this.out = out;
    }

    /** Opens an object: <code>{</code>. */
    public JsonWriter beginObject() {
        return open((byte) '{');
    }

    /** Closes the innermost object: <code>}</code>. */
    public JsonWriter endObject() {
        return close((byte) '}');
    }

    /** Opens an array: {@code [}. */
    public JsonWriter beginArray() {
        return open((byte) '[');
    }

    /** Closes the innermost array: {@code ]}. */
    public JsonWriter endArray() {
        return close((byte) ']');
    }

    /** A member's name inside an object, escaped; its value comes next. */
    public JsonWriter name(String name) {
        separate();
        quoted(name);
        room(1);
        buf[pos++] = ':';
        afterName = true;
        return this;
    }

    /** A member's name encoded before ({@link #text}); its value comes next. */
    public JsonWriter name(Text name) {
        separate();
        raw(name.quoted, 1);
        buf[pos++] = ':';
        afterName = true;
        return this;
    }

    /** A string value encoded before ({@link #text}). */
    public JsonWriter value(Text s) {
        separate();
        raw(s.quoted, 0);
        return this;
    }

    /** A string value, escaped; {@code null} writes {@code null}. */
    public JsonWriter value(String s) {
        if (s == null) {
            return nullValue();
        }
        separate();
        quoted(s);
        return this;
    }

    /** An integer value. */
    public JsonWriter value(long v) {
        separate();
        room(TOKEN);
        digits(v);
        return this;
    }

    /** A double value as {@link Double#toString} text; NaN and the infinities as strings. */
    public JsonWriter value(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return value(Double.toString(v));
        }
        separate();
        ascii(Double.toString(v));
        return this;
    }

    /** {@code true} or {@code false}. */
    public JsonWriter value(boolean v) {
        separate();
        ascii(v ? "true" : "false");
        return this;
    }

    /** {@code null}. */
    public JsonWriter nullValue() {
        separate();
        ascii("null");
        return this;
    }

    /**
     * A trace time as a JSON number: {@code ns / 1000} with exactly three decimals ({@link TraceTime}).
     *
     * @throws IllegalArgumentException when {@code ns} is negative
     */
    public JsonWriter micros(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative trace time: " + ns + " ns");
        }
        separate();
        room(TOKEN);
        digits(ns / 1000);
        int frac = (int) (ns % 1000);
        buf[pos++] = '.';
        buf[pos++] = (byte) ('0' + frac / 100);
        buf[pos++] = (byte) ('0' + frac / 10 % 10);
        buf[pos++] = (byte) ('0' + frac % 10);
        return this;
    }

    /** Writes out what is buffered and flushes the output. */
    public void flush() {
        drain();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes out what is buffered and closes the output (also when writing fails). */
    public void close() {
        try (out) {
            drain();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonWriter open(byte c) {
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("JSON nested deeper than " + MAX_DEPTH + " levels");
        }
        separate();
        room(1);
        buf[pos++] = c;
        depth++;
        filled &= ~(1L << depth);
        return this;
    }

    private JsonWriter close(byte c) {
        room(1);
        buf[pos++] = c;
        depth--;
        return this;
    }

    /** Before a value or name: a comma when its container holds one already. */
    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        long bit = 1L << depth;
        if ((filled & bit) != 0) {
            room(1);
            buf[pos++] = ',';
        } else {
            filled |= bit;
        }
    }

    private void digits(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                ascii("-9223372036854775808");
                return;
            }
            buf[pos++] = '-';
            v = -v;
        }
        int n = 1;
        for (long x = v; x >= 10; x /= 10) {
            n++;
        }
        int at = pos + n;
        pos = at;
        do {
            buf[--at] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        } while (v != 0);
    }

    /** Bytes as they are, with {@code spare} bytes of room after them. */
    private void raw(byte[] bytes, int spare) {
        room(bytes.length + spare);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
    }

    /** Text known to be ASCII with nothing to escape. */
    private void ascii(String s) {
        int n = s.length();
        room(n);
        for (int i = 0; i < n; i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
    }

    private void quoted(String s) {
        int n = s.length();
        room(2);
        buf[pos++] = '"';
        int i = 0;
        while (i < n) {
            // a run of characters written as one byte each, with room for the run checked once
            int end = Math.min(n, i + (buf.length - pos) - 1);
            if (end <= i) {
                drain();
                continue;
            }
            for (; i < end; i++) {
                char c = s.charAt(i);
                if (c >= 0x80 || ESCAPES[c] != 0) {
                    break;
                }
                buf[pos++] = (byte) c;
            }
            if (i < end) {
                special(s.charAt(i++));
            }
        }
        room(1);
        buf[pos++] = '"';
    }

    /** One character that is not plain ASCII: an escape or a UTF-8 sequence. */
    private void special(char c) {
        room(6);
        if (c < 0x80) {
            byte e = ESCAPES[c];
            buf[pos++] = '\\';
            if (e > 0) {
                buf[pos++] = e;
            } else {
                unicodeEscape(c);
            }
        } else if (c < 0x800) {
            buf[pos++] = (byte) (0xC0 | c >> 6);
            buf[pos++] = (byte) (0x80 | c & 0x3F);
        } else if (Character.isSurrogate(c)) {
            buf[pos++] = '\\';
            unicodeEscape(c);
        } else {
            buf[pos++] = (byte) (0xE0 | c >> 12);
            buf[pos++] = (byte) (0x80 | c >> 6 & 0x3F);
            buf[pos++] = (byte) (0x80 | c & 0x3F);
        }
    }

    private void unicodeEscape(char c) {
        buf[pos++] = 'u';
        buf[pos++] = HEX[c >> 12];
        buf[pos++] = HEX[c >> 8 & 0xF];
        buf[pos++] = HEX[c >> 4 & 0xF];
        buf[pos++] = HEX[c & 0xF];
    }

    private void room(int bytes) {
        if (buf.length - pos < bytes) {
            drain();
        }
    }

    private void drain() {
        if (pos == 0) {
            return;
        }
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pos = 0;
    }
}
