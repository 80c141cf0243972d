package dev.dfx.perf.session;

import java.util.Arrays;

/**
 * Sample id to event, as an open-addressing hash table of primitive longs (the lookup runs once per record,
 * so it must not box). Ids are arbitrary u64 values; a null value marks an empty slot.
 * Not thread-safe.
 */
final class IdMap {
    private long[] keys = new long[16];
    private Evsel[] values = new Evsel[16];
    private int size;

    void put(long id, Evsel e) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int i = slot(id, keys.length);
        while (values[i] != null && keys[i] != id) {
            i = (i + 1) & (keys.length - 1);
        }
        if (values[i] == null) {
            size++;
        }
        keys[i] = id;
        values[i] = e;
    }

    Evsel get(long id) {
        int i = slot(id, keys.length);
        while (values[i] != null) {
            if (keys[i] == id) {
                return values[i];
            }
            i = (i + 1) & (keys.length - 1);
        }
        return null;
    }

    private void grow() {
        long[] ok = keys;
        Evsel[] ov = values;
        keys = new long[ok.length * 2];
        values = new Evsel[ok.length * 2];
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ov[i] != null) {
                put(ok[i], ov[i]);
            }
        }
    }

    private static int slot(long id, int n) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & (n - 1);
    }

    @Override
    public String toString() {
        return "IdMap" + Arrays.toString(Arrays.copyOf(keys, Math.min(4, keys.length)));
    }
}
