package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link EncodedTexts}: which strings it keeps (all up to its limit; with {@code repeatsOnly}, only those seen again),
 * the same text for a string once kept; whether a string is kept does not change the bytes written (the texts against
 * plain strings: {@link JsonWriterTest}).
 */
class EncodedTextsTest {
    @Test
    void keepsEveryStringUpToItsLimit() {
        EncodedTexts t = new EncodedTexts(2, false);
        JsonWriter.Text a = t.get("task");
        assertThat(a).isNotNull();
        assertThat(t.get(new String("task"))).isSameAs(a); // an equal string, not the same one
        assertThat(t.get("phase")).isNotNull();
        assertThat(t.get("submit")).as("past the limit").isNull();
        assertThat(t.get("task")).isSameAs(a);
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
}
