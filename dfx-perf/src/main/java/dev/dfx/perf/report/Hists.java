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
    /** The layout's sort keys, compared at each step of a lookup. */
    private final SortKey[] keys;
    /** The entries after {@code hists__collapse_resort}, made on first use once every sample is added. */
    private TreeMap<HistEntry, HistEntry> collapsed;
    /** The lines in print order, made by {@link #sorted}. */
    private List<HistEntry> output;
    private long totalPeriod;
    private long samples;
    private Map<SortKey, Integer> lengths;
    /** Whether the sample being added is hidden by a filter. */
    private boolean filtered;
    /** {@code evsel->core.nr_members}: the events of the group this event leads, 1 when it leads none. */
    private int nrMembers = 1;
    /** Whether the report shows groups as one table ({@code symbol_conf.event_group}). */
    private boolean groupView;
    /** When this event leads a group shown as one table: the group's events' lines by place, [0] this; else null. */
    private Hists[] members;
    /** The name the report gives the event: its own, or its group's description. */
    private String description;
    /**
     * The lines found lately, by the keys of the candidate that found them ({@link HistEntry#sameKeys}), in slots
     * by {@link HistEntry#keysHash}: a sample like a recent one finds its line without walking the tree. Used while
     * the tree's comparison is a total order that does not change ({@link #recentUsable}), where the tree and this
     * can only give the same line.
     */
    private final HistEntry[] recentKeys = new HistEntry[RECENT_SLOTS];
    private final HistEntry[] recentLines = new HistEntry[RECENT_SLOTS];
    private static final int RECENT_SLOTS = 256;
    /**
     * Whether {@link #recentKeys} may answer: the sort keys order entries totally (the symbol key, which orders
     * unresolved addresses apart from DSOs, only after the DSO key) and every line so far has
     * {@link HistEntry#stableKeys}; false for good once a line without them is made.
     */
    private boolean recentUsable;

    Hists(Evsel evsel, ReportLayout layout, DsoOrder dsos) {
        this.evsel = evsel;
        this.layout = layout;
        this.dsos = dsos;
        this.keys = layout.keys().toArray(new SortKey[0]);
        this.entries = new TreeMap<>(this::collapse);
        List<SortKey> k = layout.keys();
        // the trace key tells lines apart by a text the recent keys do not hold, and marks what each comparison
        // formats (the column's width): its lookups all go through the tree
        this.recentUsable = !k.contains(SortKey.TRACE) && (!k.contains(SortKey.SYM)
            || k.contains(SortKey.DSO) && k.indexOf(SortKey.DSO) < k.indexOf(SortKey.SYM));
    }

    /** {@code hist_entry__cmp}: the sort keys' collapse order. */
    private int collapse(HistEntry x, HistEntry y) {
        for (SortKey k : keys) {
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
            ip.level(), s.trace()));
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
            HistEntry candidate = new HistEntry(s.thread(), s.comm(), s.cpu(), f.map(), f.sym(), f.ip(), level,
                s.trace());
            if (seenBefore(seen, candidate)) {
                continue; // once per sample: recursion, or the sample's own entry
            }
            candidate.traceFormatted = false; // perf compares a copy (he_tmp) and adds the entry from a fresh one
            HistEntry e = entry(candidate);
            seen.add(e);
            e.accPeriod += s.period();
            e.accSamples++;
            if (layout.useCallchain()) {
                append(e, chain.subList(i, chain.size()), s.period());
            }
        }
    }

    /**
     * {@code iter_add_next_cumulative_entry}'s check for an entry the sample has added already; with the {@code sym}
     * key, entries of different symbols are told apart before the full comparison, as perf does.
     */
    private boolean seenBefore(List<HistEntry> seen, HistEntry candidate) {
        boolean fast = layout.keys().contains(SortKey.SYM);
        for (int i = 0; i < seen.size(); i++) {
            if (fast && SortKey.symbolsDiffer(seen.get(i), candidate)) {
                continue;
            }
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
        boolean stable = candidate.stableKeys();
        int slot = candidate.keysHash() & (RECENT_SLOTS - 1);
        if (recentUsable && stable) {
            HistEntry k = recentKeys[slot];
            if (k != null && k.sameKeys(candidate)) {
                return recentLines[slot];
            }
        }
        HistEntry e = entries.putIfAbsent(candidate, candidate);
        if (e == null) {
            e = candidate;
            e.filtered = filtered;
            e.ensureCallchain(dsos);
            recentUsable &= stable;
        }
        if (recentUsable && stable) {
            recentKeys[slot] = candidate;
            recentLines[slot] = e;
        }
        return e;
    }

    /**
     * @return the lines in print order, as perf's output tree holds them ({@code __hists__insert_output_entry}):
     *         entries taken in collapse order, each put left of a node it sorts before and right otherwise, in a
     *         red-black tree. The children column's order is not transitive (depth decides only within one thread),
     *         so the order is the tree's and not a sort's; java.util.TreeMap balances as Linux's rbtree does
     *         (both are CLR's algorithm), and a comparator that never answers 0 makes it place nodes as perf does.
     *         Made once, when first asked for (call it once every sample is added and the group linked).
     */
    List<HistEntry> sorted() {
        if (output == null) {
            TreeMap<HistEntry, Boolean> tree = new TreeMap<>((fresh, node) -> before(fresh, node) ? -1 : 1);
            for (HistEntry e : collapsed().values()) {
                tree.put(e, Boolean.TRUE);
                e.traceFormattedAtOutput = e.traceFormatted;
            }
            output = new ArrayList<>(tree.keySet());
        }
        return output;
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

    /**
     * Sets this event's place in the recording's groups; call once every sample is added, before {@link #link}.
     */
    void group(EventGroups g) {
        nrMembers = g.members(evsel);
        groupView = g.view();
        if (g.groupEvent(evsel)) {
            members = new Hists[nrMembers];
            members[0] = this;
            description = g.description(evsel);
        }
    }

    /**
     * Makes the lines of a group member part of this leader's table, as {@code report__collapse_hists} does with
     * {@code hists__match} (each of this event's lines takes the member's entry of the same keys as its pair) and
     * {@code hists__link} (a member's entry no line took gets a line of its own here, with nothing of the leader's:
     * {@code hists__add_dummy_entry}, placed in the leader's tree by the same comparison).
     *
     * @param member the member's lines, every sample added
     * @param place  the member's place in the group ({@code evsel__group_idx}, 1 or more)
     */
    void link(Hists member, int place) {
        members[place] = member;
        TreeMap<HistEntry, HistEntry> mine = collapsed();
        TreeMap<HistEntry, HistEntry> theirs = member.collapsed();
        for (HistEntry e : mine.values()) {
            HistEntry p = theirs.get(e);
            if (p != null) {
                pair(e, p, place);
            }
        }
        for (HistEntry p : theirs.values()) {
            if (!p.paired) {
                HistEntry e = mine.get(p);
                if (e == null) {
                    e = p.dummy(dsos);
                    mine.put(e, e);
                }
                pair(e, p, place);
            }
        }
    }

    private void pair(HistEntry e, HistEntry p, int place) {
        if (e.pairs == null) {
            e.pairs = new HistEntry[nrMembers];
        }
        e.pairs[place] = p;
        p.paired = true;
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
        sorted(); // output_resort measures each line as it places it
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

    /** @return the name of the report's section: the event's, or its group's description when shown as one */
    String description() {
        return description != null ? description : evsel.name();
    }

    /** @return {@code evsel->core.nr_members}: the events of the group this event leads, else 1 */
    int nrMembers() {
        return nrMembers;
    }

    /** @return whether the report shows groups as one table ({@code symbol_conf.event_group}) */
    boolean groupView() {
        return groupView;
    }

    /** @return whether this event leads a group shown as one table ({@code evsel__is_group_event}) */
    boolean groupEvent() {
        return members != null;
    }

    /**
     * @param place a place in this event's group (0: this event)
     * @return that event's lines, or null when it has no samples
     */
    Hists member(int place) {
        return members == null ? (place == 0 ? this : null) : members[place];
    }

    /** @return the samples of the section: this event's, with its group members' when shown as one table */
    long sectionSamples() {
        long n = samples;
        for (int i = 1; members != null && i < members.length; i++) {
            n += members[i] == null ? 0 : members[i].samples;
        }
        return n;
    }

    /** @return the period of the section: this event's, with its group members' when shown as one table */
    long sectionPeriod() {
        long n = totalPeriod;
        for (int i = 1; members != null && i < members.length; i++) {
            n += members[i] == null ? 0 : members[i].totalPeriod;
        }
        return n;
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
