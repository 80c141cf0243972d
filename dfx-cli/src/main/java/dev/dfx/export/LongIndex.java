package dev.dfx.export;

/**
 * Numbers distinct {@code long} keys (task ids) 0, 1, 2, ... in the order they are first added, so that what a trace
 * keeps per task lives in plain arrays indexed by that number: an open-addressing hash table of primitive longs,
 * linear probing, at most half full, each slot's key and index side by side in one array, so that a lookup of a
 * table larger than the caches (a run's trace looks up every task two to four times: its bars, its submit, each
 * dependency edge, in an order the hash scatters) misses the cache once rather than twice. Nothing is boxed or
 * allocated per key. Memory: 32 to 64 bytes per key. Not thread-safe; after the last {@link #add}, any number of
 * threads may call {@link #index} once it was safely published.
 */
final class LongIndex {
    /** Per slot two longs: the key, valid where the next holds an index, and the key's index, -1 for a free slot. */
    private long[] table = newTable(16);
    private int size;

    /** @return how many distinct keys were added */
    int size() {
        return size;
    }

    /**
     * @param key any long
     * @return the key's index: {@link #size()} before the call when the key is new, else the index it got then
     */
    int add(long key) {
        int i = find(key);
        if (table[i + 1] >= 0) {
            return (int) table[i + 1];
        }
        table[i] = key;
        table[i + 1] = size;
        if (++size * 4 > table.length) { // more than half of the slots used
            grow();
        }
        return size - 1;
    }

    /** @return the key's index, or -1 when it was never added */
    int index(long key) {
        return (int) table[find(key) + 1];
    }

    /** @return where the slot that holds the key, or the free slot where it would go, begins in {@link #table} */
    private int find(long key) {
        int mask = table.length - 2;
        int i = slot(key) & mask;
        while (table[i + 1] >= 0 && table[i] != key) {
            i = (i + 2) & mask;
        }
        return i;
    }

    private void grow() {
        long[] old = table;
        table = newTable(old.length * 2);
        int mask = table.length - 2;
        for (int j = 0; j < old.length; j += 2) {
            if (old[j + 1] >= 0) {
                int i = slot(old[j]) & mask;
                while (table[i + 1] >= 0) {
                    i = (i + 2) & mask;
                }
                table[i] = old[j];
                table[i + 1] = old[j + 1];
            }
        }
    }

    /** @return a table of {@code longs / 2} free slots */
    private static long[] newTable(int longs) {
        long[] t = new long[longs];
        for (int i = 1; i < longs; i += 2) {
            t[i] = -1;
        }
        return t;
    }

    /**
     * Fibonacci hashing, the product's two halves folded: task ids differ mostly in their low bits (a ring's local
     * counter), which the multiplication spreads over the high ones. Doubled: a slot's place in {@link #table}.
     */
    private static int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return ((int) (h >>> 32) ^ (int) h) << 1;
    }
}
