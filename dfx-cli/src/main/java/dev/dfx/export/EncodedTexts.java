package dev.dfx.export;

import java.util.HashMap;
import java.util.Map;

/**
 * Strings a trace writer repeats (event names, categories, arg keys, phase names, a task's {@code comm}), each encoded
 * once as a {@link JsonWriter.Text}, up to a bound. A lookup first compares the string given by identity with the one
 * last looked up in its slot (by the string's hash, which a {@link String} keeps): the walk hands the same string
 * objects over and over, so most lookups end there without {@link String#equals}. With {@code repeatsOnly}, a string
 * is kept only when it comes again soon after (its hash is remembered in a small table): a run's trace names every
 * task in a bar name and a {@code task_id} value of its own, and kept, such one-off strings would fill the map with
 * entries never asked for again, making every other lookup a walk over memory that is not in the cache. Whether a
 * string is kept changes only the speed: {@link JsonWriter#value(JsonWriter.Text)} writes the same bytes as
 * {@link JsonWriter#value(String)}.
 *
 * <p>Not thread-safe: one writer thread. Memory: at most {@code max} texts of at most {@link JsonWriter#MAX_TEXT}
 * bytes each, and two tables of {@value #SLOTS} and {@value #SEEN} entries.
 */
final class EncodedTexts {
    /** Slots of the identity cache, a power of two. */
    private static final int SLOTS = 1024;
    /** Hashes remembered for {@code repeatsOnly}, a power of two. */
    private static final int SEEN = 4096;
    /** Positions remembered by {@link #at}. */
    private static final int POSITIONS = 16;

    private final int max;
    private final Map<String, JsonWriter.Text> texts = new HashMap<>();
    private final String[] recent = new String[SLOTS];
    private final JsonWriter.Text[] recentTexts = new JsonWriter.Text[SLOTS];
    /** Hash of the last string seen once per slot (by hash), or null when every string is kept. */
    private final int[] seen;
    /** The string last kept at each position ({@link #at}), and its text. */
    private final String[] atPosition = new String[POSITIONS];
    private final JsonWriter.Text[] atPositionTexts = new JsonWriter.Text[POSITIONS];

    /**
     * @param max         most strings kept encoded; any more are not encoded here
     * @param repeatsOnly keep a string only on its second sighting (within {@value #SEEN} other one-off strings)
     */
    EncodedTexts(int max, boolean repeatsOnly) {
        this.max = max;
        this.seen = repeatsOnly ? new int[SEEN] : null;
    }

    /**
     * @param s a string, not null
     * @return {@code s} encoded once, or null when it is not kept: {@code max} strings are kept already and {@code s}
     *         is not one of them, {@code s} is too long to be encoded once, {@code s} holds a UTF-16 surrogate, or
     *         (with {@code repeatsOnly}) it is seen for the first time
     */
    JsonWriter.Text get(String s) {
        int h = s.hashCode();
        int mixed = h ^ h >>> 16;
        int slot = mixed & (SLOTS - 1);
        if (recent[slot] == s) {
            return recentTexts[slot];
        }
        JsonWriter.Text t = texts.get(s);
        if (t == null) {
            if (texts.size() >= max || s.length() >= JsonWriter.MAX_TEXT / 6) {
                return null;
            }
            if (seen != null) {
                int seenSlot = mixed & (SEEN - 1);
                if (seen[seenSlot] != h) {
                    seen[seenSlot] = h; // first sighting (or a collision): remembered, not kept yet
                    return null;
                }
            }
            if (hasSurrogate(s)) { // asked only of a string about to be kept: most one-off strings never are
                return null;
            }
            t = JsonWriter.text(s);
            texts.put(s, t);
        }
        recent[slot] = s;
        recentTexts[slot] = t;
        return t;
    }

    /**
     * {@link #get} for a string at a position of an event (the category, an arg's key by its index): the walk hands
     * the same string object at the same position event after event, so that most lookups are one comparison by
     * identity with the string kept last at that position, with no hash to read and mix.
     *
     * @param position the position, 0 or more; past {@value #POSITIONS} the lookup is {@link #get}'s
     */
    JsonWriter.Text at(int position, String s) {
        if (position < POSITIONS && atPosition[position] == s) {
            return atPositionTexts[position];
        }
        JsonWriter.Text t = get(s);
        if (t != null && position < POSITIONS) {
            atPosition[position] = s;
            atPositionTexts[position] = t;
        }
        return t;
    }

    /**
     * Whether {@code s} holds a surrogate: Jackson's generator writes each half of a pair as its own backslash-u
     * escape, while the encoding a {@link JsonWriter.Text} is made with joins a pair into one 4-byte UTF-8 sequence
     * and refuses a lone half; such a string is written by the generator every time, so its bytes never depend on
     * whether it was kept.
     */
    private static boolean hasSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
