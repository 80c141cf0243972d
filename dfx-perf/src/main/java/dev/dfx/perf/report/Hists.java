package dev.dfx.perf.report;

import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.profile.ProfileSample;
import dev.dfx.perf.session.Evsel;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lines of one event's report ({@code struct hists}, {@code util/hist.c}): samples gathered into
 * {@link HistEntry}s by the sort keys ({@code hists__add_entry}), in children mode also added to every entry
 * their callchain passes through, once per sample ({@code hist_entry_iter__add} with the cumulative iterator),
 * each entry keeping the callchains of its samples ({@code callchain_append}). Not thread-safe.
 */
final class Hists {
    private final Evsel evsel;
    private final ReportLayout layout;
    private final DsoOrder dsos;
    private final TreeMap<HistEntry, HistEntry> entries;
    /** The entries after {@code hists__collapse_resort}, made on first use once every sample is added. */
    private TreeMap<HistEntry, HistEntry> collapsed;
    private long totalPeriod;
    private long samples;
    private Map<SortKey, Integer> lengths;
    /** Whether the sample being added is hidden by a filter. */
    private boolean filtered;

    Hists(Evsel evsel, ReportLayout layout, DsoOrder dsos) {
        this.evsel = evsel;
        this.layout = layout;
        this.dsos = dsos;
        this.entries = new TreeMap<>(this::collapse);
    }

    /** {@code hist_entry__cmp}: the sort keys' collapse order. */
    private int collapse(HistEntry x, HistEntry y) {
        for (SortKey k : layout.keys()) {
            int c = k.collapse(x, y);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * Adds a sample of this event.
     *
     * @param filtered whether a filter hides the sample's lines ({@code al->filtered}); it still counts towards the
     *                 totals, and a line is hidden when the sample that made it was (perf keeps the flag of the
     *                 entry's first sample)
     */
    void add(ProfileSample s, boolean filtered) {
        this.filtered = filtered;
        totalPeriod += s.period();
        samples++;
        ProfileFrame ip = s.ip();
        HistEntry self = entry(new HistEntry(s.thread(), s.comm(), s.cpu(), ip.map(), ip.sym(), ip.printedIp(),
            ip.level()));
        self.period += s.period();
        self.samples++;
        List<ProfileFrame> chain = layout.callerOrder() ? s.callchain().reversed() : s.callchain();
        if (layout.children()) {
            self.accPeriod += s.period();
            self.accSamples++;
        }
        if (layout.useCallchain()) {
            append(self, chain, s.period());
        }
        if (!layout.children()) {
            return;
        }
        List<HistEntry> seen = new ArrayList<>();
        seen.add(self);
        char level = ip.level();
        for (int i = 0; i < chain.size(); i++) {
            ProfileFrame f = chain.get(i);
            if (f.map() != null) {
                // fill_callchain_info: the level follows the map; without a map it stays as it was
                level = f.cpumode() == Machine.CPUMODE_KERNEL || f.cpumode() == Machine.CPUMODE_GUEST_KERNEL
                    ? 'k' : '.';
            }
            HistEntry candidate = new HistEntry(s.thread(), s.comm(), s.cpu(), f.map(), f.sym(), f.ip(), level);
            if (seenBefore(seen, candidate)) {
                continue; // once per sample: recursion, or the sample's own entry
            }
            HistEntry e = entry(candidate);
            seen.add(e);
            e.accPeriod += s.period();
            e.accSamples++;
            if (layout.useCallchain()) {
                append(e, chain.subList(i, chain.size()), s.period());
            }
        }
    }

    private boolean seenBefore(List<HistEntry> seen, HistEntry candidate) {
        for (int i = 0; i < seen.size(); i++) {
            if (collapse(seen.get(i), candidate) == 0) {
                return true;
            }
        }
        return false;
    }

    private void append(HistEntry e, List<ProfileFrame> chain, long period) {
        e.callchain.append(chain, period);
        e.maxDepth = Math.max(e.maxDepth, chain.size());
    }

    private HistEntry entry(HistEntry candidate) {
        HistEntry e = entries.putIfAbsent(candidate, candidate);
        if (e != null) {
            return e;
        }
        candidate.filtered = filtered;
        candidate.ensureCallchain(dsos);
        return candidate;
    }

    /**
     * @return the lines in print order, as perf's output tree holds them ({@code __hists__insert_output_entry}):
     *         entries taken in collapse order, each put left of a node it sorts before and right otherwise, in a
     *         red-black tree. The children column's order is not transitive (depth decides only within one thread),
     *         so the order is the tree's and not a sort's; java.util.TreeMap balances as Linux's rbtree does
     *         (both are CLR's algorithm), and a comparator that never answers 0 makes it place nodes as perf does.
     */
    List<HistEntry> sorted() {
        TreeMap<HistEntry, Boolean> tree = new TreeMap<>((fresh, node) -> before(fresh, node) ? -1 : 1);
        for (HistEntry e : collapsed().values()) {
            tree.put(e, Boolean.TRUE);
        }
        return new ArrayList<>(tree.keySet());
    }

    /**
     * {@code hists__collapse_resort}: where a sort key has a collapse function of its own (perf's {@code comm}),
     * perf moves the entries, in the order of the tree samples were added to, into a second tree and merges those
     * that compare equal there (their periods and callchains). With inlined functions the comparison is not
     * transitive (names, or addresses), so the second tree can merge entries the first kept apart.
     */
    private TreeMap<HistEntry, HistEntry> collapsed() {
        if (collapsed == null) {
            if (!layout.keys().contains(SortKey.COMM)) {
                collapsed = entries;
            } else {
                collapsed = new TreeMap<>(this::collapse);
                for (HistEntry e : entries.values()) {
                    HistEntry into = collapsed.putIfAbsent(e, e);
                    if (into != null) {
                        into.period += e.period;
                        into.samples += e.samples;
                        into.accPeriod += e.accPeriod;
                        into.accSamples += e.accSamples;
                        if (layout.useCallchain()) {
                            e.callchain.mergeInto(into.callchain);
                        }
                    }
                }
            }
        }
        return collapsed;
    }

    /** @return whether perf sorts {@code x} before {@code y} ({@code hist_entry__sort(x, y) > 0}) */
    private boolean before(HistEntry x, HistEntry y) {
        for (ReportColumn c : layout.sorts()) {
            if (c instanceof ReportColumn.Key k && layout.elided().contains(k.key())) {
                continue; // perf_hpp__should_skip: a left-out column does not order the lines
            }
            int r = c.order(x, y, this);
            if (r != 0) {
                return r < 0;
            }
        }
        return false;
    }

    /** @return the width of a sort key's column ({@code hists__calc_col_len}, at least its header) */
    int columnLength(SortKey k) {
        if (lengths == null) {
            lengths = lengths();
        }
        return lengths.get(k);
    }

    private Map<SortKey, Integer> lengths() {
        Map<SortKey, Integer> len = new EnumMap<>(SortKey.class);
        for (SortKey k : SortKey.values()) {
            len.put(k, 0);
        }
        for (HistEntry e : collapsed().values()) {
            if (e.filtered) {
                continue; // hists__calc_col_len sees the lines printed
            }
            for (SortKey k : SortKey.values()) {
                if (k == SortKey.PID) {
                    continue; // follows the comm column's growth below
                }
                int l = k.length(e);
                if (l > len.get(k)) {
                    len.put(k, l);
                    if (k == SortKey.COMM) {
                        len.put(SortKey.PID, l + 8);
                    }
                }
            }
            if (e.sym == null && len.get(SortKey.DSO) < SortKey.ADDRESS_DIGITS) {
                len.put(SortKey.DSO, SortKey.ADDRESS_DIGITS); // hists__set_unres_dso_col_len
            }
        }
        for (SortKey k : SortKey.values()) {
            len.merge(k, k.header.length(), Math::max);
        }
        return len;
    }

    Evsel evsel() {
        return evsel;
    }

    long totalPeriod() {
        return totalPeriod;
    }

    long samples() {
        return samples;
    }

    boolean children() {
        return layout.children();
    }

    boolean useCallchain() {
        return layout.useCallchain();
    }

    ReportLayout layout() {
        return layout;
    }
}
