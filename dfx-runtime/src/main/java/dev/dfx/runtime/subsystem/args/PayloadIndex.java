package dev.dfx.runtime.subsystem.args;

import java.util.Arrays;

/**
 * Where each payload of one args lane went in {@code args.bin}, in the order the lane wrote its records. The lane's
 * collector thread appends; the exporter reads after the pipeline stopped (which joins that thread), walking the
 * lane's records in the same order.
 */
final class PayloadIndex {
    private long[] offsets = new long[256];
    private int size;

    void add(long binOffset) {
        if (size == offsets.length) {
            offsets = Arrays.copyOf(offsets, size * 2);
        }
        offsets[size++] = binOffset;
    }

    /** @return the bin offset of the lane's {@code i}-th payload, or -1 when there is none */
    long get(int i) {
        return i < size ? offsets[i] : -1;
    }

    /** @return payloads indexed */
    int size() {
        return size;
    }
}
