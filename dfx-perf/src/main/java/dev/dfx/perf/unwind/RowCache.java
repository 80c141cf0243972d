package dev.dfx.perf.unwind;

import dev.dfx.perf.machine.MapGroup;
import java.util.HashMap;
import java.util.Map;

/**
 * The rows already computed for one process's address space, by looked-up address: the FDE search and the CFI
 * program run once per address, not once per sample (libunwind keeps a per-address-space cache for the same
 * reason). Emptied when the process's mappings change ({@link MapGroup#generation()}) and when it holds
 * {@value #MAX_ENTRIES} rows. A row whose computation read the sample's stack copy (only corrupt CFI points
 * there) is not kept. Not thread-safe.
 */
final class RowCache {
    /** Rows kept per process at most. */
    static final int MAX_ENTRIES = 1 << 16;

    /**
     * A looked-up address's outcome.
     *
     * @param fde     its FDE, or {@code null} when the lookup failed
     * @param row     the row at the address
     * @param failure the lookup's failure, or {@code null}
     */
    record Row(Fde fde, RegisterRules row, UnwindException.Kind failure) {
    }

    private final MapGroup maps;
    private final Map<Long, Row> rows = new HashMap<>();
    private long generation;

    RowCache(MapGroup maps) {
        this.maps = maps;
        this.generation = maps.generation();
    }

    /**
     * @param mem    the process memory of the sample being unwound
     * @param lookup the address to find the row of
     * @return its row, or its failure
     */
    Row row(SampleMemory mem, long lookup) {
        if (generation != maps.generation()) {
            rows.clear();
            generation = maps.generation();
        }
        Row r = rows.get(lookup);
        if (r != null) {
            return r;
        }
        long stackReads = mem.stackReads();
        try {
            Fde fde = EhFrameTable.find(mem, lookup);
            r = new Row(fde, CfiInterpreter.rowAt(mem, fde, lookup), null);
        } catch (UnwindException e) {
            r = new Row(null, null, e.kind());
        }
        if (mem.stackReads() == stackReads) {
            if (rows.size() >= MAX_ENTRIES) {
                rows.clear();
            }
            rows.put(lookup, r);
        }
        return r;
    }
}
