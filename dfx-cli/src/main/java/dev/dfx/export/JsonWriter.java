package dev.dfx.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import java.io.IOException;
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
    /**
     * Bytes buffered at which {@link #boundary()} hands them to the output: 64 KiB, the buffer of the file outputs
     * ({@code AtomicFile}), which passes a write that large straight to the file instead of copying it into its
     * buffer first: a trace of hundreds of MB is written in 64 KiB system calls and copied once on the way.
     */
    static final int HAND_OVER = 1 << 16;
    /** Room in the generator's buffer past {@link #HAND_OVER}: Jackson's own buffer size. */
    private static final int ROOM = 8000;
    /**
     * Jackson's defaults, except that closing a writer cut short by an error does not complete its brackets, that
     * handing the generator's buffer to the output does not flush the output ({@link #flush()} does both), and that
     * the generator's buffer holds {@link #HAND_OVER} + {@value #ROOM} bytes.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT).disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
            .recyclerPool(new LargeOutputBuffers()).build();

    /** Gives each generator a buffer of {@link #HAND_OVER} + {@value #ROOM} bytes, Jackson's other buffers as is. */
    private static final class LargeOutputBuffers extends JsonRecyclerPools.NonRecyclingPool {
        @Override
        public BufferRecycler acquirePooled() {
            return new BufferRecycler() {
                @Override
                protected int byteBufferLength(int ix) {
                    return ix == BYTE_WRITE_ENCODING_BUFFER ? HAND_OVER + ROOM : super.byteBufferLength(ix);
                }
            };
        }
    }

    private final OutputStream out;
    private final JsonGenerator gen;
    /** A timestamp's text: up to 19 digits, the point and three decimals. */
    private final char[] number = new char[24];
    /** The characters of the last {@link #value(StringBuilder)}. */
    private char[] chars = new char[256];
    private int depth;
    /** What {@link #rawValue} hands the generator. */
    private final RawJson raw = new RawJson();

    /**
     * A string encoded once, quoted and escaped, for names and values that every event repeats (a trace event's keys,
     * its phase): writing it is one array copy. Immutable, thread-safe.
     */
    public static final class Text {
        private final SerializedString text;
        /** The text escaped, without its quotes. */
        private final byte[] escaped;

        private Text(SerializedString text) {
            this.text = text;
            this.escaped = text.asQuotedUTF8();
        }

        /** @return the text's UTF-8 bytes escaped, without the quotes around them; not to be changed */
        byte[] escaped() {
            return escaped;
        }
    }

    /**
     * @return {@code s} encoded as {@link #value(String)} would write it
     * @throws IllegalArgumentException when the encoded text is longer than {@value #MAX_TEXT} bytes
     */
    public static Text text(String s) {
        SerializedString t = new SerializedString(s);
        int size = t.asQuotedUTF8().length;
        if (size > MAX_TEXT) {
            throw new IllegalArgumentException("a JSON text encoded once is at most " + MAX_TEXT + " bytes, not "
                    + size);
        }
        return new Text(t);
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
            gen.writeStartObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Closes the innermost object: <code>}</code>. */
    public JsonWriter endObject() {
        depth--;
        try {
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
            gen.writeStartArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Closes the innermost array: {@code ]}. */
    public JsonWriter endArray() {
        depth--;
        try {
            gen.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A member's name inside an object, escaped; its value comes next. */
    public JsonWriter name(String name) {
        try {
            gen.writeFieldName(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A member's name encoded before ({@link #text}); its value comes next. */
    public JsonWriter name(Text name) {
        try {
            gen.writeFieldName(name.text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A string value encoded before ({@link #text}). */
    public JsonWriter value(Text s) {
        try {
            gen.writeString(s.text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A string value, escaped; {@code null} writes {@code null}. */
    public JsonWriter value(String s) {
        try {
            gen.writeString(s);
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
            gen.writeString(chars, 0, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** An integer value. */
    public JsonWriter value(long v) {
        try {
            gen.writeNumber(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A double value as {@link Double#toString} text; NaN and the infinities as strings. */
    public JsonWriter value(double v) {
        try {
            gen.writeNumber(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** {@code true} or {@code false}. */
    public JsonWriter value(boolean v) {
        try {
            gen.writeBoolean(v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** {@code null}. */
    public JsonWriter nullValue() {
        try {
            gen.writeNull();
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
        if (ns < 0) {
            throw new IllegalArgumentException("negative trace time: " + ns + " ns");
        }
        int end = number.length;
        int frac = (int) (ns % 1000);
        number[--end] = (char) ('0' + frac % 10);
        number[--end] = (char) ('0' + frac / 10 % 10);
        number[--end] = (char) ('0' + frac / 100);
        number[--end] = '.';
        long whole = ns / 1000;
        do {
            number[--end] = (char) ('0' + whole % 10);
            whole /= 10;
        } while (whole != 0);
        try {
            gen.writeNumber(number, end, number.length - end);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * A value whose JSON is encoded already (a trace event, {@link TraceEventBytes}), placed as the generator places
     * a value: after a comma when it is not the first item of its array.
     *
     * @param json its bytes, from index 0 to {@link TraceEventBytes#size()}, one complete JSON value
     */
    JsonWriter rawValue(TraceEventBytes json) {
        raw.json = json;
        try {
            gen.writeRawValue(raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            raw.json = null;
        }
        return this;
    }

    /**
     * Marks a place between two items of a long sequence (the events of a trace): hands what the generator buffered to
     * the output once it is {@value #HAND_OVER} bytes or more. Then an item of up to {@value #ROOM} bytes never finds
     * the buffer full midway, which is what the JIT compiles a writer of millions of items for: each time one of
     * those never-seen branches is met, the compiled writer, with the generator inlined into it, is discarded and
     * compiled again (four to six times for {@code dfx export} of a large perf.data file, most of the compiler's
     * time). The output (an {@code OutputStream} that buffers, typically) gets the same bytes either way.
     */
    public JsonWriter boundary() {
        if (gen.getOutputBuffered() >= HAND_OVER) {
            try {
                gen.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return this;
    }

    /** Writes bytes that are JSON text already into the output ({@link #raw}). */
    @FunctionalInterface
    public interface RawBytes {
        /**
         * @param out the writer's output, after everything written so far; not to be closed
         * @throws IOException when the bytes cannot be had or the output written
         */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Puts bytes that are JSON text already (a part of this document written by another writer) after what was
     * written so far. The generator does not see them: the caller keeps the grammar (e.g. the bytes are array items,
     * each after a comma, and an item was written before them, so that the generator puts a comma before the next).
     *
     * @throws IOException when {@code json} fails or the output cannot be written
     */
    public JsonWriter raw(RawBytes json) throws IOException {
        gen.flush();
        json.writeTo(out);
        return this;
    }

    /** Writes out what is buffered and flushes the output. */
    public void flush() {
        try {
            gen.flush();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes out what is buffered and closes the output (also when writing fails). */
    public void close() {
        try {
            gen.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Encoded bytes seen as Jackson's {@link SerializableString}, which is how its generator takes a value already
     * encoded ({@code writeRawValue}): it asks for them as unquoted UTF-8, into its buffer or, when they do not fit
     * there, as an array of their own. Nothing else is asked of a raw value.
     */
    private static final class RawJson implements SerializableString {
        TraceEventBytes json;

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            int n = json.size();
            if (n > buffer.length - offset) {
                return -1;
            }
            System.arraycopy(json.array(), 0, buffer, offset, n);
            return n;
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return Arrays.copyOf(json.array(), json.size());
        }

        @Override
        public int writeUnquotedUTF8(OutputStream out) throws IOException {
            out.write(json.array(), 0, json.size());
            return json.size();
        }

        @Override
        public String getValue() {
            return new String(json.array(), 0, json.size(), StandardCharsets.UTF_8);
        }

        @Override
        public int charLength() {
            return getValue().length();
        }

        @Override
        public char[] asQuotedChars() {
            throw new UnsupportedOperationException("a raw JSON value is not quoted again");
        }

        @Override
        public byte[] asQuotedUTF8() {
            throw new UnsupportedOperationException("a raw JSON value is not quoted again");
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            throw new UnsupportedOperationException("a raw JSON value is not quoted again");
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            throw new UnsupportedOperationException("a raw JSON value is not quoted again");
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            char[] chars = getValue().toCharArray();
            if (chars.length > buffer.length - offset) {
                return -1;
            }
            System.arraycopy(chars, 0, buffer, offset, chars.length);
            return chars.length;
        }

        @Override
        public int writeQuotedUTF8(OutputStream out) {
            throw new UnsupportedOperationException("a raw JSON value is not quoted again");
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) {
            throw new UnsupportedOperationException("a raw JSON value is not quoted again");
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer buffer) {
            int n = json.size();
            if (n > buffer.remaining()) {
                return -1;
            }
            buffer.put(json.array(), 0, n);
            return n;
        }
    }

    private void nest() {
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("JSON nested deeper than " + MAX_DEPTH + " levels");
        }
        depth++;
    }
}
