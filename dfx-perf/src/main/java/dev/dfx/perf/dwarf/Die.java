package dev.dfx.perf.dwarf;

import java.util.Arrays;

/**
 * One debugging information entry as read by {@link Unit#readDie}: its offset, tag, children flag and raw
 * attribute values (constants as read, references as {@code .debug_info} offsets, strings and addresses still
 * as their form's value, resolved by {@link Unit}). Reused from entry to entry. Not thread-safe.
 */
final class Die {
    long offset;
    int tag;
    boolean children;
    int count;
    int[] names = new int[16];
    int[] forms = new int[16];
    long[] values = new long[16];
    /** Where each attribute's value lies in {@code .debug_info}, for messages about it. */
    long[] at = new long[16];

    void clear(long at) {
        offset = at;
        tag = 0;
        children = false;
        count = 0;
    }

    void add(int name, int form, long value, long where) {
        if (count == names.length) {
            names = Arrays.copyOf(names, count * 2);
            forms = Arrays.copyOf(forms, count * 2);
            values = Arrays.copyOf(values, count * 2);
            at = Arrays.copyOf(at, count * 2);
        }
        names[count] = name;
        forms[count] = form;
        values[count] = value;
        at[count] = where;
        count++;
    }

    /** @return the index of attribute {@code name}, or -1 */
    int find(int name) {
        for (int i = 0; i < count; i++) {
            if (names[i] == name) {
                return i;
            }
        }
        return -1;
    }
}
