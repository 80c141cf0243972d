package dev.dfx.export;

import java.util.Arrays;

/**
 * Numbers distinct {@code long} keys (task ids) 0, 1, 2, ... in the order they are first added, so that what a trace
 * keeps per task lives in plain arrays indexed by that number: an open-addressing hash table of primitive longs,
 * linear probing, at most half full. Nothing is boxed or allocated per key (a run's trace looks up every task two to
 * four times: its bars, its submit, each dependency edge). Memory: 12 to 24 bytes per key. Not thread-safe; after
 * the last {@link #add}, any number of threads may call {@link #index} once it was safely published.
 */
final class LongIndex {
    /** The keys by slot, valid where {@link #slots} holds an index (a key may be any long). */
    private long[] keys = new long[16];
    /** The index of the key in each slot, -1 for a free slot. */
    private int[] slots = newSlots(16);
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
        if (slots[i] >= 0) {
            return slots[i];
        }
        keys[i] = key;
        slots[i] = size;
        if (++size * 2 > keys.length) {
            grow();
        }
        return size - 1;
    }

    /** @return the key's index, or -1 when it was never added */
    int index(long key) {
        return slots[find(key)];
    }

    /** @return the slot that holds the key, or the free slot where it would go */
    private int find(long key) {
        int i = slot(key, keys.length);
        while (slots[i] >= 0 && keys[i] != key) {
            i = (i + 1) & (keys.length - 1);
        }
        return i;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldSlots = slots;
        keys = new long[oldKeys.length * 2];
        slots = newSlots(oldKeys.length * 2);
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldSlots[j] >= 0) {
                int i = slot(oldKeys[j], keys.length);
                while (slots[i] >= 0) {
                    i = (i + 1) & (keys.length - 1);
                }
                keys[i] = oldKeys[j];
                slots[i] = oldSlots[j];
            }
        }
    }

    private static int[] newSlots(int n) {
        int[] s = new int[n];
        Arrays.fill(s, -1);
        return s;
    }

    /**
     * Fibonacci hashing, the product's two halves folded: task ids differ mostly in their low bits (a ring's local
     * counter), which the multiplication spreads over the high ones.
     */
    private static int slot(long key, int n) {
        long h = key * 0x9E3779B97F4A7C15L;
        return ((int) (h >>> 32) ^ (int) h) & (n - 1);
    }
}
