package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link EncodedTexts}: the same text for equal strings, whether the same object or not, its bound, and which strings
 * it keeps with {@code repeatsOnly} (only those seen again); whether a string is kept does not change the bytes
 * written (the texts against plain strings: {@link JsonWriterTest}).
 */
class EncodedTextsTest {
    /** @return what {@code t} writes as a value, as a String */
    private static String written(JsonWriter.Text t) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JsonWriter(out).value(t).close();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void equalStringsGetOneTextAndThatTextIsTheirs() {
        EncodedTexts texts = new EncodedTexts(10, false);
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
        EncodedTexts texts = new EncodedTexts(3, false);
        for (int i = 0; i < 3; i++) {
            assertThat(texts.get("name " + i)).isNotNull();
        }
        assertThat(texts.get("name 3")).isNull();
        assertThat(texts.get("name 0")).isNotNull(); // those kept stay
        assertThat(new EncodedTexts(10, false).get("x".repeat(JsonWriter.MAX_TEXT / 6))).isNull();
        assertThat(new EncodedTexts(10, false).get("x".repeat(JsonWriter.MAX_TEXT / 6 - 1))).isNotNull();
    }

    @Test
    void stringsOfTheSameSlotEachGetTheirOwnText() {
        EncodedTexts texts = new EncodedTexts(100, false);
        // "Aa" and "BB" have the same hash, so the same slot: the identity check must not hand one the other's text
        JsonWriter.Text aa = texts.get("Aa");
        JsonWriter.Text bb = texts.get("BB");
        assertThat(written(texts.get("Aa"))).isEqualTo("\"Aa\"");
        assertThat(written(texts.get("BB"))).isEqualTo("\"BB\"");
        assertThat(texts.get("Aa")).isSameAs(aa);
        assertThat(texts.get("BB")).isSameAs(bb);
    }

    @Test
    void withRepeatsOnlyKeepsAStringOnItsSecondSighting() {
        EncodedTexts t = new EncodedTexts(8, true);
        assertThat(t.get("axpb(t1)")).as("first sighting").isNull();
        assertThat(t.get("axpb(t2)")).isNull();
        assertThat(t.get("poll")).as("first sighting").isNull();
        JsonWriter.Text poll = t.get("poll");
        assertThat(poll).as("second sighting").isNotNull();
        assertThat(t.get("poll")).isSameAs(poll);
        assertThat(t.get("axpb(t1)")).as("seen again").isNotNull();
    }

    @Test
    void oneOffStringsDoNotUseUpTheLimit() {
        EncodedTexts t = new EncodedTexts(2, true);
        for (int i = 0; i < 10_000; i++) {
            assertThat(t.get("t" + i)).isNull();
        }
        t.get("poll");
        t.get("dispatch");
        assertThat(t.get("poll")).isNotNull();
        assertThat(t.get("dispatch")).isNotNull();
    }

    @Test
    void aStringWithASurrogateIsNeverKeptSoItIsWrittenAsTheGeneratorWritesIt() {
        EncodedTexts t = new EncodedTexts(8, false);
        String pair = "task \uD83D\uDE00"; // U+1F600 as a surrogate pair
        String lone = "task \uD800";
        assertThat(t.get(pair)).isNull();
        assertThat(t.get(pair)).as("asked again").isNull();
        assertThat(t.get(lone)).isNull(); // encoding it once would throw
        // the generator escapes each half: the bytes every sighting gets
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JsonWriter(out).value(pair).close();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("\"task \\uD83D\\uDE00\"");
    }

    @Test
    void aLookupByPositionGivesEachStringItsOwnText() {
        EncodedTexts texts = new EncodedTexts(10, false);
        String key = "loop_iter";
        JsonWriter.Text t = texts.at(1, key);
        assertThat(written(t)).isEqualTo("\"loop_iter\"");
        assertThat(texts.at(1, key)).isSameAs(t).isSameAs(texts.get(key));
        assertThat(written(texts.at(1, "pop_hit"))).isEqualTo("\"pop_hit\""); // another string at that position
        assertThat(texts.at(1, new String(key.toCharArray()))).isSameAs(t);
        assertThat(written(texts.at(100, "far"))).isEqualTo("\"far\"");    // past the positions remembered
        assertThat(texts.at(2, "\uD83D\uDE00")).isNull();                  // never kept, as get
    }
}
