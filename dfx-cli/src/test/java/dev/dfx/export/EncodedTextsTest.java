package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link EncodedTexts}: the same text for equal strings, whether the same object or not, and its bound. */
class EncodedTextsTest {
    /** @return what {@code t} writes as a value, as a String */
    private static String written(JsonWriter.Text t) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JsonWriter(out).value(t).close();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void equalStringsGetOneTextAndThatTextIsTheirs() {
        EncodedTexts texts = new EncodedTexts(10);
        String a = "perf 1740";
        String copy = new String(a.toCharArray()); // equal, another object
        JsonWriter.Text t = texts.get(a);
        assertThat(texts.get(a)).isSameAs(t);
        assertThat(texts.get(copy)).isSameAs(t);
        assertThat(written(t)).isEqualTo("\"perf 1740\"");
        assertThat(written(texts.get("q\"uote"))).isEqualTo("\"q\\\"uote\"");
    }

    @Test
    void beyondTheBoundOrTheLengthNothingIsEncoded() {
        EncodedTexts texts = new EncodedTexts(3);
        for (int i = 0; i < 3; i++) {
            assertThat(texts.get("name " + i)).isNotNull();
        }
        assertThat(texts.get("name 3")).isNull();
        assertThat(texts.get("name 0")).isNotNull(); // those kept stay
        assertThat(new EncodedTexts(10).get("x".repeat(JsonWriter.MAX_TEXT / 6))).isNull();
        assertThat(new EncodedTexts(10).get("x".repeat(JsonWriter.MAX_TEXT / 6 - 1))).isNotNull();
    }

    @Test
    void stringsOfTheSameSlotEachGetTheirOwnText() {
        EncodedTexts texts = new EncodedTexts(100);
        // "Aa" and "BB" have the same hash, so the same slot: the identity check must not hand one the other's text
        JsonWriter.Text aa = texts.get("Aa");
        JsonWriter.Text bb = texts.get("BB");
        assertThat(written(texts.get("Aa"))).isEqualTo("\"Aa\"");
        assertThat(written(texts.get("BB"))).isEqualTo("\"BB\"");
        assertThat(texts.get("Aa")).isSameAs(aa);
        assertThat(texts.get("BB")).isSameAs(bb);
    }
}
