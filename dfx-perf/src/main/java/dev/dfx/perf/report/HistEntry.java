package dev.dfx.perf.report;

import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.symbol.Symbol;

/**
 * One line of a report ({@code struct hist_entry}): what the sort keys see of the samples it gathers (their thread,
 * the thread's name then, cpu, mapping, symbol, address and privilege level) and what they add up to: self period
 * and samples, the period and samples of the samples it is on the callchain of ({@code stat_acc}, children mode),
 * and the callchain tree of those samples. Mutated while the report is built; not thread-safe.
 */
final class HistEntry {
    final PerfThread thread;
    /** The thread's name when the first sample was taken, bytes held one char per byte. */
    private final String comm;
    /** Whether {@link #comm} was the thread's {@code :TID} placeholder then. */
    private final boolean placeholder;
    final int cpu;
    final MemMap map;
    final Symbol sym;
    /** The sample's DSO-relative address (a callchain entry's address as recorded, as perf keeps it). */
    final long ip;
    final char level;
    /** {@link #shortDso()} once asked. */
    private String shortDso;
    /** The tracepoint's text of the samples on this line, one char per byte; null where the trace key is not used. */
    final String trace;
    /**
     * Whether perf has formatted {@link #trace} for this entry ({@code trace_output != NULL}): it formats it at the
     * entry's first comparison by the trace key, and only a formatted entry widens the column.
     */
    boolean traceFormatted;
    /** Whether {@link #trace} was formatted when the entry went into the output tree ({@code hists__calc_col_len}). */
    boolean traceFormattedAtOutput;
    long period;
    long samples;
    long accPeriod;
    long accSamples;
    /**
     * The callchain tree; its root holds no frames. Made when the entry becomes a line ({@link #ensureCallchain}):
     * most entries are candidates that only look up a line already there, one per sample and frame.
     */
    CallchainNode callchain;
    /** The longest chain appended ({@code callchain_root.max_depth}). */
    int maxDepth;
    /** Whether a filter hides the line (set by the sample that made the entry, as perf's {@code filtered}). */
    boolean filtered;
    /**
     * In a group's table, the group's other events' entries of this line by their place in the group (index 0 unused,
     * null where that event has none; perf's {@code pairs}); null outside one.
     */
    HistEntry[] pairs;
    /** Whether this entry of a group member was paired with its leader's line ({@code hist_entry__has_pairs}). */
    boolean paired;

    HistEntry(PerfThread thread, String comm, int cpu, MemMap map, Symbol sym, long ip, char level, String trace) {
        this.thread = thread;
        this.comm = comm;
        this.placeholder = !thread.commSet();
        this.cpu = cpu;
        this.map = map;
        this.sym = sym;
        this.ip = ip;
        this.level = level;
        this.trace = trace;
    }

    /** Gives the entry its empty callchain tree, when it is new as a line. */
    void ensureCallchain(DsoOrder dsos) {
        if (callchain == null) {
            callchain = new CallchainNode(dsos);
        }
    }

    private HistEntry(HistEntry of, DsoOrder dsos) {
        this.thread = of.thread;
        this.comm = of.comm;
        this.placeholder = of.placeholder;
        this.cpu = of.cpu;
        this.map = of.map;
        this.sym = of.sym;
        this.ip = of.ip;
        this.level = of.level;
        this.trace = of.trace;
        this.traceFormatted = of.traceFormatted;
        this.callchain = new CallchainNode(dsos);
        this.filtered = of.filtered;
    }

    /**
     * {@code hists__add_dummy_entry}: a line of a group's leader for an entry only another event of the group has;
     * the same keys (and trace text, formatted or not), no period, samples or callchains of its own.
     */
    HistEntry dummy(DsoOrder dsos) {
        return new HistEntry(this, dsos);
    }

    /**
     * @param member the place of an event in this entry's group (0 for the leader: this entry)
     * @return the entry of that event on this line, or null where it has none
     */
    HistEntry pair(int member) {
        return member == 0 ? this : pairs == null ? null : pairs[member];
    }

    /**
     * @return the name the entry shows now: the name at its first sample, except a {@code :TID} placeholder, which
     *         shows the thread's first name as soon as it has one ({@link PerfThread#firstComm()}); so, as in perf,
     *         the sort keys see the renamed placeholder too (a later sample of the same name can land on it, and
     *         {@code hists__collapse_resort} merges what then compares equal)
     */
    String comm() {
        if (placeholder) {
            String first = thread.firstComm();
            if (first != null) {
                return first;
            }
        }
        return comm;
    }

    /** Addresses within this distance of 0 compare as perf's signed differences do, without overflow. */
    private static final long SAFE_ADDRESS = 1L << 62;

    /**
     * @return whether the sort keys see this entry the same at every comparison and order it by a total order with
     *         others of the same kind: its name is no {@code :TID} placeholder (which changes when the thread is
     *         named), its symbol no inlined function (compared by name and overlapping range), and the addresses
     *         compared (its symbol's range, or its own address) are near enough to 0 that their differences do
     *         not overflow
     */
    boolean stableKeys() {
        if (placeholder) {
            return false;
        }
        if (sym == null) {
            return safe(ip);
        }
        return !sym.inlined() && safe(sym.start()) && safe(sym.end());
    }

    private static boolean safe(long address) {
        return address > -SAFE_ADDRESS && address < SAFE_ADDRESS;
    }

    /** @return whether {@code o} was made from the same thread, name, cpu, mapping, symbol, address and level */
    boolean sameKeys(HistEntry o) {
        return thread == o.thread && comm == o.comm && cpu == o.cpu && map == o.map && sym == o.sym && ip == o.ip
            && level == o.level;
    }

    /** @return a hash of what {@link #sameKeys} compares (mostly the address and thread, which vary most) */
    int keysHash() {
        long h = (ip + thread.tid() * 0x1_0000_0001L + cpu) * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32);
    }

    /** @return the DSO's short name as perf prints it ({@link ProfileFrame#shortName}), or null outside any mapping */
    String shortDso() {
        if (shortDso == null && map != null) {
            shortDso = ProfileFrame.shortName(map.dso()); // asked at every comparison of a lookup: made once
        }
        return shortDso;
    }
}
