package dev.dfx.export;

import java.util.HashMap;
import java.util.Map;

/**
 * Strings a trace writer repeats (event names, categories, arg keys, task names), each encoded once as a
 * {@link JsonWriter.Text}, up to a bound. A lookup first compares the string given by identity with the one last
 * looked up in its slot (by the string's hash, which a {@link String} keeps): the walk hands the same string objects
 * over and over (an event's name, a thread's comm), so most lookups end there without {@link String#equals}.
 *
 * <p>Not thread-safe: one writer thread. Memory: at most {@code max} texts of at most {@link JsonWriter#MAX_TEXT}
 * bytes each.
 */
final class EncodedTexts {
    /** Slots of the identity cache, a power of two. */
    private static final int SLOTS = 1024;

    private final int max;
    private final Map<String, JsonWriter.Text> texts = new HashMap<>();
    private final String[] recent = new String[SLOTS];
    private final JsonWriter.Text[] recentTexts = new JsonWriter.Text[SLOTS];

    /** @param max most strings kept encoded; any more are not encoded here */
    EncodedTexts(int max) {
        this.max = max;
    }

    /**
     * @param s a string, not null
     * @return {@code s} encoded once, or null when {@code max} strings are kept already and {@code s} is not one of
     *         them, or {@code s} is too long to be encoded once
     */
    JsonWriter.Text get(String s) {
        int h = s.hashCode();
        int slot = (h ^ h >>> 16) & (SLOTS - 1);
        if (recent[slot] == s) {
            return recentTexts[slot];
        }
        JsonWriter.Text t = texts.get(s);
        if (t == null) {
            if (texts.size() >= max || s.length() >= JsonWriter.MAX_TEXT / 6) {
                return null;
            }
            t = JsonWriter.text(s);
            texts.put(s, t);
        }
        recent[slot] = s;
        recentTexts[slot] = t;
        return t;
    }
}
