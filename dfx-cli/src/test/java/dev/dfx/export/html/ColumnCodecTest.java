package dev.dfx.export.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The page's columns read back as viewer.js reads them (base64, little-endian, the kind's width and signedness): each
 * column takes the narrowest kind that holds its range, and every value comes back exactly.
 */
class ColumnCodecTest {
    static Stream<Arguments> ranges() {
        return Stream.of(Arguments.of(0, 255, "u8"), Arguments.of(-128, 127, "i8"), Arguments.of(0, 65_535, "u16"),
                Arguments.of(-32_768, 32_767, "i16"), Arguments.of(0, 4_294_967_295L, "u32"),
                Arguments.of(-2_147_483_648L, 2_147_483_647L, "i32"), Arguments.of(-1, 4_294_967_295L, "f64"),
                Arguments.of(0, 1L << 53, "f64"), Arguments.of(0, 256, "u16"), Arguments.of(-129, 0, "i16"));
    }

    @ParameterizedTest
    @MethodSource("ranges")
    void numbersTakeTheNarrowestKindThatHoldsTheirRangeAndReadBackExactly(long min, long max, String kind)
            throws IOException {
        SplittableRandom random = new SplittableRandom(min ^ max);
        long[] v = new long[1000];
        v[0] = min;
        v[1] = max;
        for (int i = 2; i < v.length; i++) {
            v[i] = min + (long) (random.nextDouble() * (max - min));
        }
        JsonNode col = write(g -> ColumnCodec.writeLongs(g, v, v.length));
        assertThat(col.fieldNames().next()).isEqualTo(kind);
        assertThat(read(col)).containsExactly(v);
    }

    @Test
    void numbersBeyondWhatADoubleHoldsExactlyAreRefused() {
        long[] v = {0, (1L << 53) + 1};
        assertThatThrownBy(() -> write(g -> ColumnCodec.writeLongs(g, v, 2))).hasMessageContaining("2^53");
    }

    @Test
    void fractionsAreDoublesAndWholeDoublesAreIntegers() throws IOException {
        JsonNode whole = write(g -> ColumnCodec.writeDoubles(g, new double[] {0, 3, 7}, 3));
        assertThat(whole.fieldNames().next()).isEqualTo("u8");
        assertThat(read(whole)).containsExactly(0, 3, 7);
        JsonNode frac = write(g -> ColumnCodec.writeDoubles(g, new double[] {0, 2.5}, 2));
        ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(frac.get("f64").asText()))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getDouble()).isEqualTo(0);
        assertThat(b.getDouble()).isEqualTo(2.5);
    }

    @Test
    void taskIdsAreTwoHalvesAndRepeatedStringsADictionaryAndAnythingElseJson() throws IOException {
        List<Object> ids = List.of("0x0000000000000000", "0xfedcba9876543210", "0x00000001ffffffff");
        JsonNode hex = write(g -> ColumnCodec.writeValues(g, ids));
        long[] hi = read(hex.get("hex64").get(0));
        long[] lo = read(hex.get("hex64").get(1));
        for (int i = 0; i < ids.size(); i++) {
            assertThat(String.format("0x%08x%08x", hi[i], lo[i])).isEqualTo(ids.get(i));
        }

        List<Object> types = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            types.add(i % 3 == 0 ? "cpu" : "gpu");
        }
        JsonNode dict = write(g -> ColumnCodec.writeValues(g, types));
        long[] at = read(dict.get("at"));
        for (int i = 0; i < types.size(); i++) {
            assertThat(dict.get("dict").get((int) at[i]).asText()).isEqualTo(types.get(i));
        }

        List<Object> mixed = List.of(1L, "0x12", 2.5, true, Map.of("k", 1));
        assertThat(write(g -> ColumnCodec.writeValues(g, mixed))).hasToString("[1,\"0x12\",2.5,true,{\"k\":1}]");
        List<Object> upper = List.of("0xABCDEF0123456789"); // not the form dfx writes: kept as text
        assertThat(write(g -> ColumnCodec.writeValues(g, upper))).hasToString("[\"0xABCDEF0123456789\"]");
    }

    private interface Writes {
        void to(JsonGenerator g) throws IOException;
    }

    private static JsonNode write(Writes w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = PageJson.generator(out)) {
            w.to(g);
        }
        return PageJson.MAPPER.readTree(out.toByteArray());
    }

    /** Reads a number column as viewer.js does (a typed array of the kind over the decoded bytes). */
    static long[] read(JsonNode col) {
        String kind = col.fieldNames().next();
        ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(col.get(kind).asText()))
                .order(ByteOrder.LITTLE_ENDIAN);
        int width = switch (kind) {
            case "u8", "i8" -> 1;
            case "u16", "i16" -> 2;
            case "u32", "i32" -> 4;
            default -> 8;
        };
        long[] v = new long[b.remaining() / width];
        for (int i = 0; i < v.length; i++) {
            v[i] = switch (kind) {
                case "u8" -> b.get() & 0xFF;
                case "i8" -> b.get();
                case "u16" -> b.getShort() & 0xFFFF;
                case "i16" -> b.getShort();
                case "u32" -> b.getInt() & 0xFFFF_FFFFL;
                case "i32" -> b.getInt();
                default -> (long) b.getDouble();
            };
        }
        return v;
    }
}
