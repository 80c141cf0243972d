package dev.dfx.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Streams JSON tokens as UTF-8 through Jackson's streaming generator ({@code UTF8JsonGenerator}, default settings):
 * objects, arrays, names, strings, numbers and trace timestamps ({@link TraceTime}), with the commas and colons
 * between them placed by the generator. What a trace writer emits per event: names and values every event repeats
 * are encoded once ({@link Text}, Jackson's {@link SerializedString}), timestamps are written from a reused buffer,
 * so nothing is allocated per token.
 *
 * <p>Members after the first of an object whose name is encoded once and whose value is an integer, a trace time or
 * a text encoded once ({@link #member(Text, long)}, {@link #microsMember}, {@link #member(Text, Text)}) are written
 * here, into a buffer of their own, and handed to the generator as raw text in one piece ({@code writeRaw}) before
 * its next token: a trace event's run of such members is one call into the generator instead of two per member,
 * which was most of the writer thread's time. The generator's context stays true for what follows: after a
 * complete member it puts a comma before the next name, which those members are too.
 *
 * <p>Text is Jackson's: {@code "} and {@code \} escaped with a backslash, control characters as {@code \n}-style or
 * <code>&#92;u00XX</code> escapes, other characters as UTF-8, NaN and the infinities, which JSON numbers cannot
 * express, as strings ({@code "NaN"}). Format: RFC 8259.
 *
 * <p>Nesting is at most {@value #MAX_DEPTH} levels. The caller keeps the token grammar (a name before each value
 * inside an object). Not thread-safe: one writer thread. {@link IOException}s of the output are rethrown as
 * {@link UncheckedIOException}.
 */
public final class JsonWriter {
    /** Deepest nesting of objects and arrays. */
    public static final int MAX_DEPTH = 63;
    /** Longest {@link Text}, in bytes encoded. */
    public static final int MAX_TEXT = 1024;
    /** Longest trace time's text: up to 16 digits, the point and three decimals. */
    private static final int MAX_MICROS = 20;
    /** Bytes buffered at which {@link #boundary()} hands them to the output: half of Jackson's 8000-byte buffer. */
    static final int HAND_OVER = 4096;
    /**
     * Jackson's defaults, except that closing a writer cut short by an error does not complete its brackets, and that
     * handing the generator's buffer to the output does not flush the output ({@link #flush()} does both).
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT).disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM).build();

    private final OutputStream out;
    private final JsonGenerator gen;
    /** A timestamp's text: up to 19 digits, the point and three decimals. */
    private final char[] number = new char[MAX_MICROS];
    /** A timestamp's text before it goes to {@link #number}. */
    private final byte[] numberBytes = new byte[MAX_MICROS];
    /** The characters of the last {@link #value(StringBuilder)}. */
    private char[] chars = new char[256];
    private int depth;
    /** Members written here and not yet handed to the generator ({@link #member(Text, long)}). */
    private final RawText pending = new RawText();
    /** Whether a name was written whose value has not been: no member may be added here then. */
    private boolean nameOpen;

    /**
     * A string encoded once, quoted and escaped, for names and values that every event repeats (a trace event's keys,
     * its phase): writing it is one array copy. Immutable, thread-safe.
     */
    public static final class Text {
        private final SerializedString text;
        /** The string as {@link #value(Text)} writes it: quoted, escaped, UTF-8. */
        private final byte[] quoted;
        /** What comes before the value of a member of this name after another member: a comma, the name, a colon. */
        private final byte[] memberPrefix;

        private Text(SerializedString text, byte[] quoted) {
            this.text = text;
            this.quoted = quoted;
            this.memberPrefix = new byte[quoted.length + 2];
            memberPrefix[0] = ',';
            System.arraycopy(quoted, 0, memberPrefix, 1, quoted.length);
            memberPrefix[memberPrefix.length - 1] = ':';
        }
    }

    /**
     * @return {@code s} encoded as {@link #value(String)} would write it
     * @throws IllegalArgumentException when the encoded text is longer than {@value #MAX_TEXT} bytes
     */
    public static Text text(String s) {
        SerializedString t = new SerializedString(s);
        byte[] escaped = t.asQuotedUTF8();
        if (escaped.length > MAX_TEXT) {
            throw new IllegalArgumentException("a JSON text encoded once is at most " + MAX_TEXT + " bytes, not "
                    + escaped.length);
        }
        byte[] quoted = new byte[escaped.length + 2];
        quoted[0] = '"';
        System.arraycopy(escaped, 0, quoted, 1, escaped.length);
        quoted[quoted.length - 1] = '"';
        return new Text(t, quoted);
    }

    /** @param out where the bytes go; buffered by the generator, flushed and closed by {@link #close()} */
    public JsonWriter(OutputStream out) {
        this.out = out;
        try {
            this.gen = FACTORY.createGenerator(out, JsonEncoding.UTF8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Opens an object: <code>{</code>. */
    public JsonWriter beginObject() {
        nest();
        try {
            drain();
            gen.writeStartObject();
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Closes the innermost object: <code>}</code>. */
    public JsonWriter endObject() {
        depth--;
        try {
            drain();
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Opens an array: {@code [}. */
    public JsonWriter beginArray() {
        nest();
        try {
            drain();
            gen.writeStartArray();
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Closes the innermost array: {@code ]}. */
    public JsonWriter endArray() {
        depth--;
        try {
            drain();
            gen.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A member's name inside an object, escaped; its value comes next. */
    public JsonWriter name(String name) {
        try {
            drain();
            gen.writeFieldName(name);
            nameOpen = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A member's name encoded before ({@link #text}); its value comes next. */
    public JsonWriter name(Text name) {
        try {
            drain();
            gen.writeFieldName(name.text);
            nameOpen = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A string value encoded before ({@link #text}). */
    public JsonWriter value(Text s) {
        try {
            drain();
            gen.writeString(s.text);
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A string value, escaped; {@code null} writes {@code null}. */
    public JsonWriter value(String s) {
        try {
            drain();
            gen.writeString(s);
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * A string value, escaped: the same bytes as {@link #value(String)} of {@code s.toString()}, without making that
     * String.
     */
    public JsonWriter value(StringBuilder s) {
        int n = s.length();
        if (chars.length < n) {
            chars = new char[Math.max(n, 2 * chars.length)];
        }
        s.getChars(0, n, chars, 0);
        try {
            drain();
            gen.writeString(chars, 0, n);
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** An integer value. */
    public JsonWriter value(long v) {
        try {
            drain();
            gen.writeNumber(v);
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A double value as {@link Double#toString} text; NaN and the infinities as strings. */
    public JsonWriter value(double v) {
        try {
            drain();
            gen.writeNumber(v);
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** {@code true} or {@code false}. */
    public JsonWriter value(boolean v) {
        try {
            drain();
            gen.writeBoolean(v);
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** {@code null}. */
    public JsonWriter nullValue() {
        try {
            drain();
            gen.writeNull();
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * A trace time as a JSON number: {@code ns / 1000} with exactly three decimals ({@link TraceTime}).
     *
     * @throws IllegalArgumentException when {@code ns} is negative
     */
    public JsonWriter micros(long ns) {
        int end = micros(traceTime(ns), numberBytes, 0);
        for (int i = 0; i < end; i++) {
            number[i] = (char) numberBytes[i];
        }
        try {
            drain();
            gen.writeNumber(number, 0, end);
            nameOpen = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * A member after the first of the current object: {@code name} and an integer value, as
     * {@code name(name).value(v)} writes them.
     *
     * @throws IllegalStateException when the current container is no object, holds no member yet, or a name waits
     *                               for its value
     */
    public JsonWriter member(Text name, long v) {
        RawText m = memberName(name, 20);
        m.length = NumberOutput.outputLong(v, m.bytes, m.length);
        return this;
    }

    /**
     * A member after the first of the current object: {@code name} and a text, as {@code name(name).value(value)}
     * writes them.
     *
     * @throws IllegalStateException as {@link #member(Text, long)}
     */
    public JsonWriter member(Text name, Text value) {
        memberName(name, value.quoted.length).add(value.quoted);
        return this;
    }

    /**
     * A member after the first of the current object: {@code name} and a trace time, as
     * {@code name(name).micros(ns)} writes them.
     *
     * @throws IllegalStateException as {@link #member(Text, long)}
     * @throws IllegalArgumentException when {@code ns} is negative
     */
    public JsonWriter microsMember(Text name, long ns) {
        long time = traceTime(ns);
        RawText m = memberName(name, MAX_MICROS);
        m.length = micros(time, m.bytes, m.length);
        return this;
    }

    /**
     * Adds {@code ,"name":} to the members not yet handed over, with room for {@code valueBytes} more.
     *
     * @return the members not yet handed over
     */
    private RawText memberName(Text name, int valueBytes) {
        JsonStreamContext c = gen.getOutputContext();
        if (nameOpen || !c.inObject() || c.getEntryCount() == 0) {
            throw new IllegalStateException("a member written in one piece follows a member of the same object");
        }
        return pending.room(name.memberPrefix.length + valueBytes).add(name.memberPrefix);
    }

    /** Hands the members written here to the generator, before any token of its own. */
    private void drain() throws IOException {
        if (pending.length > 0) {
            gen.writeRaw(pending);
            pending.length = 0;
        }
    }

    /**
     * @return {@code ns}
     * @throws IllegalArgumentException when {@code ns} is negative
     */
    private static long traceTime(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative trace time: " + ns + " ns");
        }
        return ns;
    }

    /**
     * Writes {@code ns / 1000} with exactly three decimals, in ASCII, at {@code at} of {@code out}, which has room for
     * {@value #MAX_MICROS} bytes there.
     *
     * @param ns a trace time, not negative
     * @return where the text ends in {@code out}
     */
    private static int micros(long ns, byte[] out, int at) {
        int end = NumberOutput.outputLong(ns / 1000, out, at); // Jackson's digits of an integer, as writeNumber's
        int frac = (int) (ns % 1000);
        out[end] = '.';
        out[end + 1] = (byte) ('0' + frac / 100);
        out[end + 2] = (byte) ('0' + frac / 10 % 10);
        out[end + 3] = (byte) ('0' + frac % 10);
        return end + 4;
    }

    /**
     * Marks a place between two items of a long sequence (the events of a trace): hands what the generator buffered to
     * the output once it is {@value #HAND_OVER} bytes or more. Then an item of up to about as many bytes never finds
     * the buffer full midway, which is what the JIT compiles a writer of millions of items for: each time one of
     * those never-seen branches is met, the compiled writer, with the generator inlined into it, is discarded and
     * compiled again (four to six times for {@code dfx export} of a large perf.data file, most of the compiler's
     * time). The output (an {@code OutputStream} that buffers, typically) gets the same bytes either way.
     */
    public JsonWriter boundary() {
        if (gen.getOutputBuffered() + pending.length >= HAND_OVER) {
            try {
                drain();
                gen.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return this;
    }

    /**
     * Copies bytes that are JSON text already (a part of this document written by another writer) after what was
     * written so far. The generator does not see them: the caller keeps the grammar (e.g. the bytes are array items,
     * each after a comma, and an item was written before them, so that the generator puts a comma before the next).
     *
     * @throws IOException when {@code json} cannot be read or the output written
     */
    public JsonWriter raw(InputStream json) throws IOException {
        drain();
        gen.flush();
        json.transferTo(out);
        return this;
    }

    /** Writes out what is buffered and flushes the output. */
    public void flush() {
        try {
            drain();
            gen.flush();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes out what is buffered and closes the output (also when writing fails). */
    public void close() {
        try {
            try {
                drain();
            } finally {
                gen.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void nest() {
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("JSON nested deeper than " + MAX_DEPTH + " levels");
        }
        depth++;
    }

    /**
     * JSON text that is written as it is (members gathered by {@link JsonWriter#member(Text, long)} and the like):
     * what the generator's {@code writeRaw} copies into its buffer. Never written as a string value or name, so the
     * quoted forms are not supported. Not thread-safe.
     */
    private static final class RawText implements SerializableString {
        private static final String NOT_QUOTED = "raw JSON text is written as it is, never quoted as a string";
        byte[] bytes = new byte[256];
        int length;

        /** @return this, with room for {@code more} bytes after {@link #length} */
        RawText room(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + more));
            }
            return this;
        }

        /** Appends {@code b}, for which there is room; returns this. */
        RawText add(byte[] b) {
            // a loop: the texts are a few bytes, for which a call to the array-copy stub costs more than the copy
            int at = length;
            for (byte x : b) {
                bytes[at++] = x;
            }
            length = at;
            return this;
        }

        @Override
        public String getValue() {
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }

        @Override
        public int charLength() {
            return getValue().length();
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return Arrays.copyOf(bytes, length);
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            if (offset + length > buffer.length) {
                return -1;
            }
            System.arraycopy(bytes, 0, buffer, offset, length);
            return length;
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            String text = getValue();
            if (offset + text.length() > buffer.length) {
                return -1;
            }
            text.getChars(0, text.length(), buffer, offset);
            return text.length();
        }

        @Override
        public int writeUnquotedUTF8(OutputStream out) throws IOException {
            out.write(bytes, 0, length);
            return length;
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer buffer) {
            if (buffer.remaining() < length) {
                return -1;
            }
            buffer.put(bytes, 0, length);
            return length;
        }

        @Override
        public char[] asQuotedChars() {
            throw new UnsupportedOperationException(NOT_QUOTED);
        }

        @Override
        public byte[] asQuotedUTF8() {
            throw new UnsupportedOperationException(NOT_QUOTED);
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            throw new UnsupportedOperationException(NOT_QUOTED);
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            throw new UnsupportedOperationException(NOT_QUOTED);
        }

        @Override
        public int writeQuotedUTF8(OutputStream out) {
            throw new UnsupportedOperationException(NOT_QUOTED);
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) {
            throw new UnsupportedOperationException(NOT_QUOTED);
        }
    }
}
