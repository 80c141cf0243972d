package dev.dfx.export;

import java.util.HashMap;
import java.util.Map;

/**
 * Strings a JSON writer writes again and again, each encoded once ({@link JsonWriter#text}), up to a number of them.
 * With {@code repeatsOnly}, a string is kept only when it comes again soon after (its hash is remembered in a small
 * table): a run's trace names every task in a bar name and a {@code task_id} value of its own, and kept, such one-off
 * strings would fill the table with entries never asked for again, making every look-up of the strings that do
 * repeat (phase names, states, a perf.data task's {@code comm}) a walk over memory that is not in the cache.
 * Whether a string is kept changes only the speed: {@link JsonWriter#value(JsonWriter.Text)} writes the same bytes as
 * {@link JsonWriter#value(String)}.
 *
 * <p>Not thread-safe: one writer thread.
 */
final class EncodedTexts {
    /** Hashes remembered for {@code repeatsOnly}: a power of two. */
    private static final int SEEN = 4096;

    private final Map<String, JsonWriter.Text> texts = new HashMap<>();
    private final int max;
    /** Hash of the last string seen once per slot (by hash), or null when every string is kept. */
    private final int[] seen;

    /**
     * @param max         most strings kept; later ones are not encoded ahead
     * @param repeatsOnly keep a string only on its second sighting (within {@value #SEEN} other one-off strings)
     */
    EncodedTexts(int max, boolean repeatsOnly) {
        this.max = max;
        this.seen = repeatsOnly ? new int[SEEN] : null;
    }

    /** @return {@code s} encoded once, or null when it is not kept (write it as a string) */
    JsonWriter.Text get(String s) {
        JsonWriter.Text t = texts.get(s);
        if (t != null || texts.size() >= max || s.length() >= JsonWriter.MAX_TEXT / 6) {
            return t;
        }
        if (seen != null) {
            int h = s.hashCode();
            int slot = (h ^ (h >>> 16)) & (SEEN - 1);
            if (seen[slot] != h) {
                seen[slot] = h; // first sighting (or a collision): remembered, not kept yet
                return null;
            }
        }
        t = JsonWriter.text(s);
        texts.put(s, t);
        return t;
    }
}
