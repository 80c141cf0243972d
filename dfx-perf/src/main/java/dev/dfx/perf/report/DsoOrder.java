package dev.dfx.perf.report;

import dev.dfx.perf.profile.ProfileFrame;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which perf compares DSOs where it compares {@code struct dso} pointers (callchain matching): perf
 * allocates a dso as it first meets it and its allocator hands out rising addresses, so the order is that of first
 * appearance. perf report meets first the DSOs the BUILD_ID header feature lists, in its order, as it reads the
 * header; then each other DSO at the first MMAP record that maps it (the kernel's at its {@code [kernel.kallsyms]}
 * MMAP). No DSO ({@code NULL}) comes first. Not thread-safe.
 */
final class DsoOrder {
    private final Map<String, Integer> order = new HashMap<>();

    /** @param fromHeader the DSOs the BUILD_ID feature lists, in its order (names as frames carry them) */
    DsoOrder(List<String> fromHeader) {
        fromHeader.forEach(this::add);
    }

    /** Registers a DSO by its long name, when it is new. */
    void add(String dso) {
        order.putIfAbsent(dso, order.size() + 1);
    }

    /** @return the order of the frames' DSOs */
    int compare(ProfileFrame a, ProfileFrame b) {
        return Integer.compare(rank(a), rank(b));
    }

    private int rank(ProfileFrame f) {
        if (f.map() == null) {
            return 0;
        }
        Integer r = order.get(f.map().dso());
        if (r == null) {
            add(f.map().dso());
            r = order.get(f.map().dso());
        }
        return r;
    }
}
