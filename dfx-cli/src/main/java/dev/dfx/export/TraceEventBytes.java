package dev.dfx.export;

import dev.dfx.io.DecimalText;
import dev.dfx.record.TaskId;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The UTF-8 JSON of one Chrome trace event of the shape a perf.data export writes millions of (members known ahead,
 * args of strings, integers and booleans), encoded straight into a reused byte array and handed to {@link JsonWriter}
 * whole ({@link JsonWriter#rawValue}), instead of some 25 calls into Jackson's generator per event, each checking the
 * generator's state and buffer. The bytes are the ones {@link JsonWriter} writes for the same tokens: strings escaped
 * as Jackson's generator escapes them by default ({@code "} and {@code \} with a backslash, the control characters
 * {@code \b \t \n \f \r} short, the other control characters and each UTF-16 surrogate as <code>&#92;uXXXX</code> with
 * upper-case hex digits, all other characters as UTF-8), integers in plain decimal, trace times as
 * {@link JsonWriter#micros} writes them.
 *
 * <p>The caller keeps the grammar: the constant parts ({@link #raw}) carry the brackets, member names, colons and
 * commas. Not thread-safe: one writer thread. Memory: the array grows to the longest event encoded (an event's
 * tracepoint text is at most some kB).
 */
final class TraceEventBytes {
    /** Per ASCII character: 0 as is, a letter for a short escape ({@code \n}), -1 for <code>&#92;u00XX</code>. */
    private static final byte[] ESCAPES = new byte[128];
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = ascii("null"), TRUE = ascii("true"), FALSE = ascii("false");

    static {
        Arrays.fill(ESCAPES, 0, 0x20, (byte) -1);
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\n'] = 'n';
        ESCAPES['\f'] = 'f';
        ESCAPES['\r'] = 'r';
    }

    private byte[] bytes = new byte[1024];
    private int size;
    /** A task id's text, made here before it is copied in ({@link #taskId}). */
    private final char[] taskIdText = new char[TaskId.CHARS];

    /** @return the bytes of ASCII text {@code s}, for the constant parts of an event */
    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Empties the array for the next event; returns this. */
    TraceEventBytes reset() {
        size = 0;
        return this;
    }

    /** @return the array holding the event's bytes from index 0 to {@link #size()}; valid until the next append */
    byte[] array() {
        return bytes;
    }

    /** @return the bytes encoded since {@link #reset()} */
    int size() {
        return size;
    }

    /** Appends bytes that are JSON text already: brackets, a member's name with its colon and comma. */
    TraceEventBytes raw(byte[] json) {
        int at = reserve(json.length); // before the array is read: reserving may replace it
        System.arraycopy(json, 0, bytes, at, json.length);
        return this;
    }

    /** Appends one ASCII character of the grammar: a comma, colon or bracket. */
    TraceEventBytes raw(char c) {
        room(1);
        bytes[size++] = (byte) c;
        return this;
    }

    /** Appends a string encoded once ({@link JsonWriter#text}), quoted. */
    TraceEventBytes text(JsonWriter.Text t) {
        return raw('"').raw(t.escaped()).raw('"');
    }

    /**
     * Appends {@code s} as a JSON string, quoted and escaped; {@code null} as {@code null}. The characters are read
     * once, through {@link CharSequence#charAt}.
     */
    TraceEventBytes string(CharSequence s) {
        if (s == null) {
            return raw(NULL);
        }
        return raw('"').chars(s).raw('"');
    }

    /** Appends the characters of {@code s} as the inside of a JSON string: escaped, without quotes. */
    TraceEventBytes chars(CharSequence s) {
        int n = s.length();
        room(n);
        byte[] b = bytes;
        int at = size;
        int i = 0;
        for (; i < n; i++) { // the common text: printable ASCII, one byte each
            char c = s.charAt(i);
            if (c >= 0x80 || ESCAPES[c] != 0) {
                break;
            }
            b[at++] = (byte) c;
        }
        size = at;
        for (; i < n; i++) {
            escaped(s.charAt(i));
        }
        return this;
    }

    /** Appends character {@code c} escaped or encoded as UTF-8 as needed. */
    private void escaped(char c) {
        room(6);
        byte[] b = bytes;
        if (c < 0x80) {
            byte e = ESCAPES[c];
            if (e == 0) {
                b[size++] = (byte) c;
            } else if (e > 0) {
                b[size++] = '\\';
                b[size++] = e;
            } else {
                unicodeEscape(c);
            }
        } else if (c < 0x800) {
            b[size++] = (byte) (0xC0 | c >> 6);
            b[size++] = (byte) (0x80 | c & 0x3F);
        } else if (Character.isSurrogate(c)) {
            unicodeEscape(c);
        } else {
            b[size++] = (byte) (0xE0 | c >> 12);
            b[size++] = (byte) (0x80 | c >> 6 & 0x3F);
            b[size++] = (byte) (0x80 | c & 0x3F);
        }
    }

    /** Appends <code>&#92;uXXXX</code> for {@code c}; room for its 6 bytes is made. */
    private void unicodeEscape(char c) {
        byte[] b = bytes;
        b[size++] = '\\';
        b[size++] = 'u';
        b[size++] = HEX[c >> 12];
        b[size++] = HEX[c >> 8 & 0xF];
        b[size++] = HEX[c >> 4 & 0xF];
        b[size++] = HEX[c & 0xF];
    }

    /** Appends {@code v} in decimal, with a minus sign when negative. */
    TraceEventBytes integer(long v) {
        room(DecimalText.MAX_LENGTH);
        size = DecimalText.put(bytes, size, v);
        return this;
    }

    /** Appends {@code v} read as unsigned 64-bit in decimal, as {@link Long#toUnsignedString(long)} spells it. */
    TraceEventBytes unsigned(long v) {
        if (v >= 0) {
            return integer(v);
        }
        long high = Long.divideUnsigned(v, 10); // at most 19 digits then, and non-negative
        integer(high);
        return raw((char) ('0' + (int) (v - high * 10)));
    }

    /** Appends task id {@code id} as a JSON string of its text ({@link TaskId#text(long)}), made in place. */
    TraceEventBytes taskId(long id) {
        int n = TaskId.text(id, taskIdText);
        room(n + 2);
        bytes[size++] = '"';
        for (int i = 0; i < n; i++) { // ASCII: 0x and hex digits
            bytes[size++] = (byte) taskIdText[i];
        }
        bytes[size++] = '"';
        return this;
    }

    /** Appends {@code true} or {@code false}. */
    TraceEventBytes bool(boolean v) {
        return raw(v ? TRUE : FALSE);
    }

    /**
     * Appends a trace time as {@link JsonWriter#micros} writes it: {@code ns / 1000} with exactly three decimals.
     *
     * @throws IllegalArgumentException when {@code ns} is negative
     */
    TraceEventBytes micros(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative trace time: " + ns + " ns");
        }
        integer(ns / 1000);
        room(4);
        int frac = (int) (ns % 1000);
        bytes[size++] = '.';
        bytes[size++] = (byte) ('0' + frac / 100);
        bytes[size++] = (byte) ('0' + frac / 10 % 10);
        bytes[size++] = (byte) ('0' + frac % 10);
        return this;
    }

    /** @return where {@code n} bytes appended now go, counted in {@link #size()} already */
    private int reserve(int n) {
        room(n);
        int at = size;
        size = at + n;
        return at;
    }

    private void room(int n) {
        if (size + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(size + n, 2 * bytes.length));
        }
    }
}
