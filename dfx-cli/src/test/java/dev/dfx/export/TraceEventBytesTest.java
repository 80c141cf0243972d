package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * {@link TraceEventBytes} against hand-encoded bytes, against Jackson's generator (the bytes a trace had when every
 * token went through it) for every UTF-16 code unit and hostile strings, and against {@link Long#toString} and
 * {@link TraceTime} for numbers.
 */
class TraceEventBytesTest {
    private static String of(TraceEventBytes b) {
        return new String(Arrays.copyOf(b.array(), b.size()), StandardCharsets.ISO_8859_1); // one char per byte
    }

    private static byte[] bytes(TraceEventBytes b) {
        return Arrays.copyOf(b.array(), b.size());
    }

    private static byte[] jackson(String s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.writeString(s);
        }
        return out.toByteArray();
    }

    @Test
    void stringsAreEscapedAsKnown() {
        TraceEventBytes b = new TraceEventBytes();
        // quote, backslash, the short escapes, a control as a six-character escape, 2- and 3-byte UTF-8, a surrogate
        // pair as two six-character escapes, DEL and '/' as they are
        b.string("a\"b\\c\n\t\r\b\f\u0001\u001f\u00e9\u20ac\uD83D\uDE00\u007f/");
        assertThat(of(b)).isEqualTo("\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001F\u00c3\u00a9\u00e2\u0082\u00ac"
                + "\\uD83D\\uDE00\u007f/\"");
        assertThat(of(b.reset().string(null))).isEqualTo("null");
        assertThat(of(b.reset().string(""))).isEqualTo("\"\"");
        assertThat(of(b.reset().string(new StringBuilder("comm=perf pid=1740")))).isEqualTo("\"comm=perf pid=1740\"");
    }

    @Test
    void everyCodeUnitIsJacksonsBytes() throws IOException {
        TraceEventBytes b = new TraceEventBytes();
        for (int c = 0; c <= 0xFFFF; c++) {
            String s = "x" + (char) c + "y" + (char) c;
            assertThat(bytes(b.reset().string(s))).as("U+%04X", c).isEqualTo(jackson(s));
        }
    }

    @Test
    void hostileStringsAreJacksonsBytes() throws IOException {
        SplittableRandom random = new SplittableRandom(20261202);
        TraceEventBytes b = new TraceEventBytes();
        for (int i = 0; i < 300; i++) {
            String s = JsonWriterTest.hostile(random, random.nextInt(i < 3 ? 70_000 : 300));
            assertThat(bytes(b.reset().string(s))).isEqualTo(jackson(s));
            assertThat(bytes(b.reset().string(new StringBuilder(s)))).isEqualTo(jackson(s));
        }
    }

    @Test
    void integersAreDecimalText() {
        TraceEventBytes b = new TraceEventBytes();
        SplittableRandom random = new SplittableRandom(7);
        LongStream edges = LongStream.of(0, 1, -1, 9, 10, -10, 99, 100, Integer.MAX_VALUE, Integer.MIN_VALUE,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1);
        LongStream.concat(edges, random.longs(2000).flatMap(v -> LongStream.of(v, v >> 20, v >> 40))).forEach(v ->
                assertThat(of(b.reset().integer(v))).isEqualTo(Long.toString(v)));
        assertThat(of(b.reset().integer(1740).raw(',').integer(-3))).isEqualTo("1740,-3");
    }

    @Test
    void traceTimesAreTraceTimeText() {
        TraceEventBytes b = new TraceEventBytes();
        assertThat(of(b.reset().micros(0))).isEqualTo("0.000");
        assertThat(of(b.reset().micros(95_836_661_995L))).isEqualTo("95836661.995");
        SplittableRandom random = new SplittableRandom(8);
        LongStream.concat(LongStream.of(5, 999, 1000, 1001, Long.MAX_VALUE), random.longs(2000, 0, Long.MAX_VALUE))
                .forEach(ns -> assertThat(of(b.reset().micros(ns))).isEqualTo(TraceTime.micros(ns)));
        assertThatThrownBy(() -> b.micros(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void partsFollowEachOtherAndTheArrayGrows() {
        TraceEventBytes b = new TraceEventBytes();
        b.raw(TraceEventBytes.ascii("{\"k\":")).text(JsonWriter.text("v\u00e9\"")).raw(',').bool(true).raw(',')
                .bool(false).raw('}');
        assertThat(of(b)).isEqualTo("{\"k\":\"v\u00c3\u00a9\\\"\",true,false}");
        String longText = "y".repeat(100_000);
        assertThat(of(b.reset().raw('[').string(longText).raw(']'))).isEqualTo("[\"" + longText + "\"]");
        // constant parts that grow the array themselves
        byte[] part = TraceEventBytes.ascii("z".repeat(3000));
        assertThat(of(new TraceEventBytes().raw('[').raw(part).raw(part))).isEqualTo("[" + "z".repeat(6000));
    }
}
