package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonWriter}, a facade over Jackson's generator, against that generator driven directly (the same bytes for
 * every token kind, encoded-once texts and hostile strings) and Jackson's parser; its own timestamp text against
 * {@link BigDecimal}.
 */
class JsonWriterTest {
    /** Characters that stress escaping: controls, quote, backslash, DEL, 2- and 3-byte UTF-8, both surrogate halves. */
    private static final char[] HOSTILE = {0, 1, 8, 9, 10, 12, 13, 0x1F, ' ', '"', '\\', '/', 0x7F, 0x80, 0xE9,
        0x7FF, 0x800, 0x20AC, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 'a', 'Z'};

    static String hostile(SplittableRandom random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x10000) : HOSTILE[random.nextInt(HOSTILE.length)]);
        }
        return sb.toString();
    }

    /** One document of names and values written by both writers; names are made distinct by their index. */
    private record Doc(List<String> strings, long[] longs, double[] doubles) {
        void write(JsonWriter w) {
            w.beginObject().name("strings").beginArray();
            strings.forEach(w::value);
            w.endArray().name("by name").beginObject();
            for (int i = 0; i < strings.size(); i++) {
                w.name(i + strings.get(i)).value(longs[i]);
            }
            w.endObject().name("doubles").beginArray();
            for (double d : doubles) {
                w.value(d);
            }
            w.endArray().name("nested").beginArray().beginArray().endArray().beginObject().endObject().nullValue()
                    .value(true).value(false).endArray().name(JsonWriter.text("enc\"oded"))
                    .value(JsonWriter.text("once \u00e9\n")).endObject();
        }

        void write(JsonGenerator g) throws IOException {
            g.writeStartObject();
            g.writeArrayFieldStart("strings");
            for (String s : strings) {
                g.writeString(s);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("by name");
            for (int i = 0; i < strings.size(); i++) {
                g.writeNumberField(i + strings.get(i), longs[i]);
            }
            g.writeEndObject();
            g.writeArrayFieldStart("doubles");
            for (double d : doubles) {
                g.writeNumber(d);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("nested");
            g.writeStartArray();
            g.writeEndArray();
            g.writeStartObject();
            g.writeEndObject();
            g.writeNull();
            g.writeBoolean(true);
            g.writeBoolean(false);
            g.writeEndArray();
            g.writeFieldName("enc\"oded");
            g.writeString("once \u00e9\n");
            g.writeEndObject();
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 20261202})
    void writesTheSameBytesAsJacksonForHostileStringsAndEveryNumber(long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> strings = new ArrayList<>(List.of("", "plain", "\"quoted\" \\ back", "\uD83D\uDE00 pair",
                "lone \uD800", "lone \uDC00 low", "cut \uD83D"));
        // some longer than the 64 KiB buffer, so that runs and escapes straddle its drains
        IntStream.range(0, 200).forEach(i -> strings.add(hostile(random, random.nextInt(i < 3 ? 70_000 : 64))));
        long[] longs = random.longs(strings.size()).toArray();
        longs[0] = Long.MIN_VALUE;
        longs[1] = Long.MAX_VALUE;
        longs[2] = 0;
        longs[3] = -1;
        double[] doubles = {0.0, -0.0, 1.5, 1e-300, 1e300, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, random.nextDouble(), -random.nextDouble() * 1e9};
        Doc doc = new Doc(strings, longs, doubles);

        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        JsonWriter w = new JsonWriter(ours);
        doc.write(w);
        w.close();
        ByteArrayOutputStream jackson = new ByteArrayOutputStream();
        try (JsonGenerator g = new JsonFactory().createGenerator(jackson, JsonEncoding.UTF8)) {
            doc.write(g);
        }
        assertThat(ours.toByteArray()).isEqualTo(jackson.toByteArray());

        JsonFactory longNames = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNameLength(1 << 20).build()).build();
        JsonNode back = new ObjectMapper(longNames).readTree(ours.toByteArray());
        for (int i = 0; i < strings.size(); i++) {
            assertThat(back.get("strings").get(i).textValue()).isEqualTo(strings.get(i));
            assertThat(back.get("by name").get(i + strings.get(i)).longValue()).isEqualTo(longs[i]);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void aStringBuilderValueIsTheStringsBytes(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        ByteArrayOutputStream strings = new ByteArrayOutputStream();
        JsonWriter w = new JsonWriter(ours).beginArray();
        JsonWriter p = new JsonWriter(strings).beginArray();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            String s = hostile(random, random.nextInt(i < 3 ? 70_000 : 300));
            sb.setLength(0);
            w.value(sb.append(s));
            p.value(s);
        }
        w.endArray().close();
        p.endArray().close();
        assertThat(ours.toByteArray()).isEqualTo(strings.toByteArray());
    }

    @Test
    void microsAreExactDecimalNumbers() {
        SplittableRandom random = new SplittableRandom(7);
        long[] values = IntStream.range(0, 500).mapToLong(i -> random.nextLong(Long.MAX_VALUE) >>> random.nextInt(63))
                .toArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonWriter w = new JsonWriter(out).beginArray();
        for (long v : values) {
            w.micros(v);
        }
        w.micros(0).micros(Long.MAX_VALUE).endArray().close();
        String[] text = out.toString(StandardCharsets.US_ASCII).replaceAll("[\\[\\]]", "").split(",");
        for (int i = 0; i < values.length; i++) {
            assertThat(text[i]).isEqualTo(BigDecimal.valueOf(values[i]).movePointLeft(3).setScale(3).toPlainString());
        }
        assertThat(text[values.length]).isEqualTo("0.000");
        assertThat(text[values.length + 1]).isEqualTo("9223372036854775.807");
        assertThatThrownBy(() -> new JsonWriter(new ByteArrayOutputStream()).micros(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBoundaryHandsTheBufferedBytesOnOnlyFromTheHandOverSizeAndChangesNoByte() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        JsonWriter w = new JsonWriter(out).beginArray();
        JsonWriter p = new JsonWriter(plain).beginArray();
        String item = "x".repeat(98); // 100 bytes with its quotes, 101 with the comma before all but the first
        int buffered = 1; // the [
        int handed = 0;
        for (int i = 0; i < 2000; i++) { // 200 kB: the generator's buffer is larger than the hand-over size
            w.value(item).boundary();
            p.value(item);
            buffered += i == 0 ? 100 : 101;
            if (buffered >= JsonWriter.HAND_OVER) { // all of it goes on, nothing below 64 KiB
                handed += buffered;
                buffered = 0;
            }
            assertThat(out.size()).as("after item %d", i).isEqualTo(handed);
        }
        assertThat(handed).isGreaterThan(2 * JsonWriter.HAND_OVER);
        w.endArray().close();
        p.endArray().close();
        assertThat(out.toByteArray()).isEqualTo(plain.toByteArray());
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() {
        JsonWriter w = new JsonWriter(new ByteArrayOutputStream());
        for (int i = 0; i < JsonWriter.MAX_DEPTH; i++) {
            w.beginArray();
        }
        assertThatThrownBy(w::beginObject).isInstanceOf(IllegalStateException.class).hasMessageContaining("63");
    }
}
