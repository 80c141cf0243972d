package dev.dfx.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The independent expectation for merge tests: a plain stable sort ({@link List#sort} is a stable merge sort) of all
 * entries by unsigned timestamp, the input listed queue by queue in index order, each queue in its own order.
 */
final class MergeOracle {
    /** One entry: its sort key, and who it is (queue, or -2 for the primary stream, and position). */
    record Entry(long key, int queue, int position) {
        long id() {
            return ((long) queue << 32) | (position & 0xFFFFFFFFL);
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    /** Lists a queue's entries in order, keyed by their own timestamps. */
    void add(int queue, List<long[]> buffers) {
        int position = 0;
        for (long[] b : buffers) {
            for (long ts : b) {
                entries.add(new Entry(ts, queue, position++));
            }
        }
    }

    /** Lists a queue's entries keyed by the running maximum of its timestamps (perf's clamp), independently computed. */
    void addClamped(int queue, List<long[]> buffers) {
        int position = 0;
        long max = 0;
        for (long[] b : buffers) {
            for (long ts : b) {
                max = Long.compareUnsigned(ts, max) > 0 ? ts : max;
                entries.add(new Entry(max, queue, position++));
            }
        }
    }

    /** Lists one entry (entries of a queue must be added in queue order). */
    void addEntry(long key, int queue, int position) {
        entries.add(new Entry(key, queue, position));
    }

    /** @return entry ids (queue << 32 | position) in stable unsigned-timestamp order */
    List<Long> sortedIds() {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(Entry::key, Long::compareUnsigned));
        return sorted.stream().map(Entry::id).toList();
    }

    static long id(int queue, int position) {
        return new Entry(0, queue, position).id();
    }
}
