package dev.dfx.export;

/**
 * Numbers distinct {@code long} keys (task ids) 0, 1, 2, ... in the order they are first added, so that what a trace
 * keeps per task lives in plain arrays indexed by that number: an open-addressing hash table of primitive longs,
 * linear probing, at most half full, each slot's key and index side by side in one array, so that a lookup of a
 * table larger than the caches (a run's trace looks up every task two to four times: its bars, its submit, each
 * dependency edge) misses the cache once rather than twice, and consecutive keys share their slots' cache lines
 * ({@link #slot}). Nothing is boxed or allocated per key. Memory: 32 to 64 bytes per key. Not thread-safe; after the
 * last {@link #add}, any number of threads may call {@link #index} once it was safely published.
 */
final class LongIndex {
    /** Consecutive keys whose slots are consecutive ({@link #slot}), a power of two. */
    private static final int BLOCK_BITS = 3, BLOCK = 1 << BLOCK_BITS;
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
     * Fibonacci hashing of the key's block of {@value #BLOCK} consecutive keys, the product's two halves folded (task
     * ids differ mostly in their low bits, a ring's local counter, which the multiplication spreads over the high
     * ones); the keys of one block take consecutive slots, 128 bytes of the table. A trace looks tasks up mostly in
     * the order of their ids (submits, bars, the edges into each task), so that one block's slots serve several
     * lookups in a row: where each key had a slot of its own anywhere in a table larger than the caches, every lookup
     * missed them. Doubled: a slot's place in {@link #table}.
     */
    private static int slot(long key) {
        long h = (key >>> BLOCK_BITS) * 0x9E3779B97F4A7C15L;
        int block = (int) (h >>> 32) ^ (int) h;
        return (block << BLOCK_BITS | (int) key & (BLOCK - 1)) << 1;
    }
}
