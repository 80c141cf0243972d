package dev.dfx.perf.machine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The mappings of one address space ({@code struct maps}), ordered by unsigned start address. Inserting a
 * mapping removes the parts of older mappings it overlaps, keeping their pieces before and after it, as
 * perf's {@code maps__fixup_overlappings} does. Shared by the threads of one process. Not thread-safe.
 */
public final class MapGroup {
    private final TreeMap<Long, MemMap> byStart = new TreeMap<>(Long::compareUnsigned);
    /** The mapping the last {@link #find} returned: callchain entries mostly fall in the same one in a row. */
    private MemMap last;
    /** Counts changes, so that what was derived from the mappings can tell it is stale. */
    private long generation;

    /** Inserts {@code map}, trimming what it overlaps. */
    public void insert(MemMap map) {
        last = null;
        generation++;
        List<MemMap> overlapped = new ArrayList<>();
        Long from = byStart.floorKey(map.start());
        if (from == null || Long.compareUnsigned(byStart.get(from).end(), map.start()) <= 0) {
            from = map.start();
        }
        for (MemMap m : byStart.tailMap(from, true).values()) {
            if (Long.compareUnsigned(m.start(), map.end()) >= 0) {
                break;
            }
            overlapped.add(m);
        }
        for (MemMap old : overlapped) {
            byStart.remove(old.start());
            if (Long.compareUnsigned(map.start(), old.start()) > 0) {
                byStart.put(old.start(), new MemMap(old.start(), map.start(), old.pgoff(), old.dso(), old.identity()));
            }
            if (Long.compareUnsigned(map.end(), old.end()) < 0) {
                long pgoff = old.pgoff() + (map.end() - old.start());
                byStart.put(map.end(), new MemMap(map.end(), old.end(), pgoff, old.dso(), old.identity()));
            }
        }
        byStart.put(map.start(), map);
    }

    /** Inserts {@code map} without trimming others (kernel maps). */
    void put(MemMap map) {
        last = null;
        generation++;
        byStart.put(map.start(), map);
    }

    /** @return the mapping containing {@code addr}, or {@code null} */
    public MemMap find(long addr) {
        MemMap m = last;
        if (m != null && m.contains(addr)) {
            return m;
        }
        Map.Entry<Long, MemMap> e = byStart.floorEntry(addr);
        if (e == null || !e.getValue().contains(addr)) {
            return null;
        }
        last = e.getValue();
        return last;
    }

    /** @return a number that changes whenever a mapping is inserted or removed */
    public long generation() {
        return generation;
    }

    /** @return the mappings in address order (unmodifiable) */
    public Collection<MemMap> all() {
        return Collections.unmodifiableCollection(byStart.values());
    }

    void clear() {
        last = null;
        generation++;
        byStart.clear();
    }
}
