package dev.dfx.perf.symbol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The symbols of one DSO sorted by start address (unsigned), looked up by binary search: {@code O(log n)} per
 * address, no allocation once an address's symbol has been asked for. Built with perf's fix-ups
 * ({@code util/symbol.c}): a symbol without size ends where the next one starts ({@code symbols__fixup_end}), then
 * of symbols with the same start one is kept ({@code symbols__fixup_duplicate}, {@code choose_best_symbol}).
 *
 * <p>A table holds each symbol's {@code [start, end)} in two arrays (16 bytes a symbol) and makes its
 * {@link Symbol} (name, kind) on the first lookup that returns it: a running kernel's kallsyms has some 120 thousand
 * symbols, of which a profile names a few hundred. Immutable and thread-safe once built: a symbol is made under the
 * table's lock and then read without it (a {@link Symbol}'s fields are final, so a thread that reads the reference
 * sees them whole); each index gets one {@link Symbol} instance for the table's life.
 */
public final class SymbolTable {
    /** {@code STB_LOCAL}. */
    public static final int LOCAL = 0;
    /** {@code STB_GLOBAL}. */
    public static final int GLOBAL = 1;
    /** {@code STB_WEAK}. */
    public static final int WEAK = 2;

    /** A table without symbols. */
    public static final SymbolTable EMPTY = new SymbolTable(new long[0], new long[0], i -> null);

    private static final long PAGE = 4096;

    /** Makes the symbol at a table index, from the table's start and end there and its source's name and kind. */
    @FunctionalInterface
    interface Maker {
        Symbol make(int index);
    }

    private final long[] starts;
    private final long[] ends;
    /** Each symbol once made; {@code null} until its first lookup. */
    private final Symbol[] symbols;
    private final Maker maker;
    /** Where symbols overlap (or one has no size): from each address on, perf's lookup result; else null. */
    private final long[] segmentStarts;
    /** The table index perf's lookup returns in each segment, or -1 for none. */
    private final int[] segments;

    private SymbolTable(long[] starts, long[] ends, Maker maker) {
        this(starts, ends, maker, new Symbol[starts.length], null, null);
    }

    private SymbolTable(long[] starts, long[] ends, Maker maker, Symbol[] symbols, long[] segmentStarts,
            int[] segments) {
        this.starts = starts;
        this.ends = ends;
        this.maker = maker;
        this.symbols = symbols;
        this.segmentStarts = segmentStarts;
        this.segments = segments;
    }

    /**
     * {@code symbols__find}: the symbol perf's lookup returns for {@code addr}. Where symbols do not overlap, the one
     * whose {@code [start, end)} holds it. Where they do (a label inside a function, {@code _init} stretched over
     * the PLT entries), perf returns the first holder its red-black tree's search meets, which depends on the
     * order perf inserted and erased the symbols; the table answers that precomputed per address range.
     *
     * @param addr an address in the DSO's address space (unsigned)
     * @return the symbol, or {@code null}
     */
    public Symbol find(long addr) {
        if (segments != null) {
            int i = floor(segmentStarts, addr);
            return i < 0 || segments[i] < 0 ? null : get(segments[i]);
        }
        int found = floor(starts, addr);
        return found >= 0 && Long.compareUnsigned(addr, ends[found]) < 0 ? get(found) : null;
    }

    /** @return the index of the greatest element at or below {@code addr} (unsigned), or -1 */
    private static int floor(long[] sorted, long addr) {
        int lo = 0;
        int hi = sorted.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(sorted[mid], addr) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** @return how many symbols the table holds */
    public int size() {
        return starts.length;
    }

    /** @return the symbol at {@code index} in address order, made on first use */
    public Symbol get(int index) {
        Symbol s = symbols[index];
        return s != null ? s : make(index);
    }

    private synchronized Symbol make(int index) {
        Symbol s = symbols[index];
        if (s == null) {
            s = maker.make(index);
            symbols[index] = s;
        }
        return s;
    }

    /** @return the index of the symbol that starts at {@code start}, or -1 (the first such where starts repeat) */
    int indexOf(long start) {
        int i = floor(starts, start);
        while (i > 0 && starts[i - 1] == start) {
            i--;
        }
        return i >= 0 && starts[i] == start ? i : -1;
    }

    /** @return the first symbol's start ({@code map__fixup_start}); the table must not be empty */
    public long start() {
        return starts[0];
    }

    /** @return the last symbol's end ({@code map__fixup_end}); the table must not be empty */
    public long end() {
        return ends[ends.length - 1];
    }

    /**
     * The symbols at {@code indices} (ascending) moved down by {@code delta}, without fix-ups, looked up as perf's
     * tree of them inserted in address order ({@link Builder#sorted()} of them): the kernel's own part of a kallsyms
     * file, placed where the recording's kernel ran. Where they neither overlap nor change order, the new table
     * makes its symbols from this table's on first use (the same instances when {@code delta} is 0).
     *
     * @param indices table indices, ascending, each once
     * @param delta   subtracted from every start and end (wrapping, unsigned)
     * @return the new table; this one when that is every symbol, not moved, and none overlaps
     */
    SymbolTable select(int[] indices, long delta) {
        int m = indices.length;
        if (m == starts.length && delta == 0 && segments == null) {
            return this; // every symbol, not moved, no overlap: the same lookups (a kallsyms file without modules)
        }
        long[] s = new long[m];
        long[] e = new long[m];
        for (int j = 0; j < m; j++) {
            s[j] = starts[indices[j]] - delta;
            e[j] = ends[indices[j]] - delta;
        }
        // a part of a table without overlaps, not moved, has none either and stays in order
        boolean plain = delta == 0 && segments == null || ascending(s) && !overlaps(s, e);
        if (plain) {
            return new SymbolTable(s, e, j -> {
                Symbol p = get(indices[j]);
                return delta == 0 ? p : Symbol.of(p.name(), s[j], e[j], p.object());
            });
        }
        Builder b = new Builder();
        for (int j = 0; j < m; j++) {
            Symbol p = get(indices[j]);
            b.add(s[j], e[j], GLOBAL, p.name(), false, p.object());
        }
        return b.sorted();
    }

    private static long[] permute(long[] a, int[] by) {
        long[] out = new long[by.length];
        for (int i = 0; i < by.length; i++) {
            out[i] = a[by[i]];
        }
        return out;
    }

    private static int[] permute(int[] a, int[] by) {
        int[] out = new int[by.length];
        for (int i = 0; i < by.length; i++) {
            out[i] = a[by[i]];
        }
        return out;
    }

    private static boolean ascending(long[] s) {
        return ascending(s, s.length);
    }

    /** @return whether {@code keys[0, n)} are in unsigned order */
    private static boolean ascending(long[] keys, int n) {
        // unsigned order as signed order of the keys shifted by 2^63, written out: these loops run once per symbol,
        // in the interpreter on a command's first table, where a call per key (Long.compareUnsigned) costs more than
        // the rest of the loop
        long prev = n > 0 ? keys[0] + Long.MIN_VALUE : 0;
        for (int i = 1; i < n; i++) {
            long k = keys[i] + Long.MIN_VALUE;
            if (k < prev) {
                return false;
            }
            prev = k;
        }
        return true;
    }

    /** @return whether a symbol reaches past the next one's start, or one has no size (perf's search differs) */
    private static boolean overlaps(long[] s, long[] e) {
        int last = s.length - 1;
        for (int i = 0; i < last; i++) {
            if (s[i] == e[i] || e[i] + Long.MIN_VALUE > s[i + 1] + Long.MIN_VALUE) { // unsigned, as in ascending
                return true;
            }
        }
        return last >= 0 && s[last] == e[last];
    }

    /**
     * The same table, looked up through perf's tree: its search is constant between two consecutive symbol starts
     * or ends (every comparison it makes has the same outcome there), except that a symbol without size holds its
     * own start only; so it is asked once per such range and the answers are kept as sorted segments.
     *
     * @param tree   perf's tree of these symbols
     * @param byNode the table index of each tree node
     */
    private SymbolTable withLookup(SymbolTree tree, int[] byNode) {
        int n = starts.length;
        long[] points = new long[n * 3];
        int k = 0;
        for (int i = 0; i < n; i++) {
            points[k++] = starts[i];
            points[k++] = ends[i];
            if (starts[i] == ends[i]) {
                points[k++] = starts[i] + 1;
            }
        }
        long[] sortedPoints = Arrays.copyOf(points, k);
        for (int i = 0; i < k; i++) {
            sortedPoints[i] ^= Long.MIN_VALUE; // unsigned order through a signed sort
        }
        Arrays.sort(sortedPoints);
        long[] from = new long[k];
        int[] hit = new int[k];
        int nSeg = 0;
        for (int i = 0; i < k; i++) {
            long p = sortedPoints[i] ^ Long.MIN_VALUE;
            if (i > 0 && sortedPoints[i] == sortedPoints[i - 1]) {
                continue;
            }
            int node = tree.find(p);
            int index = node < 0 ? -1 : byNode[node];
            if (nSeg > 0 && hit[nSeg - 1] == index) {
                continue;
            }
            from[nSeg] = p;
            hit[nSeg++] = index;
        }
        return new SymbolTable(starts, ends, maker, symbols, Arrays.copyOf(from, nSeg), Arrays.copyOf(hit, nSeg));
    }

    /**
     * The indices of {@code keys[0, n)} in unsigned order, stable for equal keys, as perf's tree inserts an equal
     * start to the right. Keys given in order (kallsyms lists the kernel's so, and a table built from a table
     * is) are not sorted; others by a merge sort of the indices.
     */
    static int[] order(long[] keys, int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (ascending(keys, n)) {
            return order;
        }
        int[] into = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int a = lo;
                int b = mid;
                int o = lo;
                while (a < mid && b < hi) {
                    into[o++] = Long.compareUnsigned(keys[order[b]], keys[order[a]]) < 0 ? order[b++] : order[a++];
                }
                while (a < mid) {
                    into[o++] = order[a++];
                }
                while (b < hi) {
                    into[o++] = order[b++];
                }
            }
            int[] swap = order;
            order = into;
            into = swap;
        }
        return order;
    }

    /**
     * Collects symbols in the order a DSO lists them, then builds the table. Names are given as strings or, for a
     * text file read whole (kallsyms), as byte ranges of it ({@link #Builder(byte[])}), turned into strings only for
     * the symbols a lookup returns. Not thread-safe.
     */
    public static final class Builder {
        private long[] start = new long[64];
        private long[] end = new long[64];
        private byte[] binding = new byte[64];
        private boolean[] module = new boolean[64];
        private boolean[] object = new boolean[64];
        private String[] name = new String[64];
        /** The text {@link #addRange} names point into, or null. */
        private final byte[] text;
        private int[] nameOffset;
        private int[] nameLength;
        private int n;

        /** A builder of symbols named by strings. */
        public Builder() {
            this.text = null;
        }

        /**
         * A builder of symbols named by byte ranges of {@code text} ({@link #addRange}), ISO-8859-1, one character a
         * byte, as perf keeps names: bytes.
         *
         * @param text the file the names are in; kept, unchanged, as long as the table
         */
        Builder(byte[] text) {
            this.text = text;
            this.nameOffset = new int[64];
            this.nameLength = new int[64];
        }

        /**
         * @param start   first address
         * @param end     address after the last byte; {@code start} when the symbol has no size
         * @param binding {@link #LOCAL}, {@link #GLOBAL} or {@link #WEAK}
         * @param name    the name
         * @param module  whether kallsyms names it a module's symbol ({@code name\t[module]}): the end fix-up
         *                does not stretch a symbol across the kernel/module boundary
         */
        public Builder add(long start, long end, int binding, String name, boolean module) {
            return add(start, end, binding, name, module, false);
        }

        /**
         * @param start   first address
         * @param end     address after the last byte; {@code start} when the symbol has no size
         * @param binding {@link #LOCAL}, {@link #GLOBAL} or {@link #WEAK}
         * @param name    the name
         * @param module  whether kallsyms names it a module's symbol
         * @param object  whether it is a data object ({@link Symbol#object()})
         */
        public Builder add(long start, long end, int binding, String name, boolean module, boolean object) {
            add(start, end, binding, module, object);
            this.name[n++] = name;
            return this;
        }

        /**
         * A symbol named by the bytes {@code [offset, offset + length)} of this builder's text.
         *
         * @param start   first address
         * @param end     address after the last byte; {@code start} when the symbol has no size
         * @param binding {@link #LOCAL}, {@link #GLOBAL} or {@link #WEAK}
         * @param module  whether kallsyms names it a module's symbol
         * @param object  whether it is a data object
         * @param offset  where the name starts in the text
         * @param length  the name's length in bytes
         */
        void addRange(long start, long end, int binding, boolean module, boolean object, int offset, int length) {
            add(start, end, binding, module, object);
            nameOffset[n] = offset;
            nameLength[n++] = length;
        }

        private void add(long start, long end, int binding, boolean module, boolean object) {
            if (n == this.start.length) {
                int cap = n * 2;
                this.start = Arrays.copyOf(this.start, cap);
                this.end = Arrays.copyOf(this.end, cap);
                this.binding = Arrays.copyOf(this.binding, cap);
                this.module = Arrays.copyOf(this.module, cap);
                this.object = Arrays.copyOf(this.object, cap);
                this.name = Arrays.copyOf(this.name, cap);
                if (text != null) {
                    nameOffset = Arrays.copyOf(nameOffset, cap);
                    nameLength = Arrays.copyOf(nameLength, cap);
                }
            }
            this.start[n] = start;
            this.end[n] = end;
            this.binding[n] = (byte) binding;
            this.module[n] = module;
            this.object[n] = object;
        }

        /** @return whether the symbols added at {@code a} and {@code b} have the same name */
        boolean sameName(int a, int b) {
            if (name[a] != null || name[b] != null) {
                Names all = names();
                return all.name(a).equals(all.name(b));
            }
            return Arrays.equals(text, nameOffset[a], nameOffset[a] + nameLength[a],
                text, nameOffset[b], nameOffset[b] + nameLength[b]);
        }

        long startAt(int i) {
            return start[i];
        }

        /** @return how many symbols were added */
        public int size() {
            return n;
        }

        /** @return the names and kinds added so far, to make symbols from after this builder has moved on */
        private Names names() {
            return new Names(name, text, nameOffset, nameLength, object);
        }

        /**
         * @param kallsyms whether the symbols come from kallsyms ({@code is_kallsyms} of the end fix-up)
         * @return the table after {@code symbols__fixup_end} and {@code symbols__fixup_duplicate}, in that order
         */
        public SymbolTable build(boolean kallsyms) {
            return build(kallsyms, new Builder());
        }

        /**
         * @param kallsyms whether the symbols come from kallsyms ({@code is_kallsyms} of the end fix-up)
         * @param later    symbols inserted after the fix-ups, as given (perf's PLT entries,
         *                 {@code dso__synthesize_plt_symbols})
         * @return the table after {@code symbols__fixup_end} and {@code symbols__fixup_duplicate}, in that order, and
         *         then {@code later}
         */
        SymbolTable build(boolean kallsyms, Builder later) {
            return build(kallsyms, later, null);
        }

        /**
         * {@link #build(boolean, Builder)}, telling which added symbol each table index was made from.
         *
         * @param source filled, when not null, with the index (in the order added) each table index was made from;
         *               {@code -1 - i} for {@code later}'s symbol {@code i}; as long as this builder's size plus
         *               {@code later}'s
         */
        SymbolTable build(boolean kallsyms, Builder later, int[] source) {
            int[] order = order(start, n);
            int m = order.length;
            long[] s = new long[m];
            long[] e = new long[m];
            for (int i = 0; i < m; i++) {
                s[i] = start[order[i]];
                e[i] = end[order[i]];
            }
            for (int i = 0; i + 1 < m; i++) {
                if (e[i] == s[i]) {
                    e[i] = kallsyms && module[order[i]] != module[order[i + 1]]
                        ? roundUp(e[i] + PAGE) : s[i + 1];
                }
            }
            if (m > 0 && e[m - 1] == s[m - 1]) {
                e[m - 1] = roundUp(s[m - 1]) + PAGE;
            }
            // symbols__fixup_duplicate: walk equal starts, keeping perf's choice of each pair, erasing in its order
            boolean[] dropped = new boolean[m];
            int[] erased = new int[m];
            int nErased = 0;
            int curr = 0;
            int next = 1;
            while (next < m) {
                if (s[curr] != s[next]) {
                    curr = next++;
                    continue;
                }
                if (choose(e[curr] - s[curr], order[curr], e[next] - s[next], order[next])) {
                    erased[nErased++] = order[next];
                    dropped[next++] = true;
                } else {
                    erased[nErased++] = order[curr];
                    dropped[curr] = true;
                    curr = next++;
                }
            }
            // the kept symbols, then the later ones, in address order (stable: a later one after a kept one)
            int total = m - nErased + later.n;
            long[] ks = new long[total];
            long[] ke = new long[total];
            int[] from = new int[total];
            long[] fixedEnd = new long[n];
            int j = 0;
            for (int i = 0; i < m; i++) {
                fixedEnd[order[i]] = e[i];
                if (!dropped[i]) {
                    ks[j] = s[i];
                    ke[j] = e[i];
                    from[j++] = order[i];
                }
            }
            for (int i = 0; i < later.n; i++) {
                ks[j] = later.start[i];
                ke[j] = later.end[i];
                from[j++] = -1 - i;
            }
            // the kept symbols come in address order; only later ones can be out of place
            int[] byAddress = later.n == 0 || ascending(ks) ? null : order(ks, total);
            long[] ts = byAddress == null ? ks : permute(ks, byAddress);
            long[] te = byAddress == null ? ke : permute(ke, byAddress);
            int[] src = byAddress == null ? from : permute(from, byAddress);
            if (source != null) {
                System.arraycopy(src, 0, source, 0, total);
            }
            Names own = names();
            Names theirs = later.names();
            SymbolTable t = new SymbolTable(ts, te, i -> src[i] >= 0 ? own.symbol(src[i], ts[i], te[i])
                : theirs.symbol(-1 - src[i], ts[i], te[i]));
            if (!overlaps(ts, te)) {
                return t;
            }
            SymbolTree tree = new SymbolTree(n + later.n);
            for (int i = 0; i < n; i++) {
                tree.insert(i, start[i], fixedEnd[i]);
            }
            for (int i = 0; i < nErased; i++) {
                tree.erase(erased[i]);
            }
            for (int i = 0; i < later.n; i++) {
                tree.insert(n + i, later.start[i], later.end[i]);
            }
            // the tree's nodes are builder indices (the later ones after them); the kept ones are the table's
            int[] byNode = new int[n + later.n];
            Arrays.fill(byNode, -1);
            for (int i = 0; i < total; i++) {
                byNode[src[i] >= 0 ? src[i] : n - 1 - src[i]] = i;
            }
            return t.withLookup(tree, byNode);
        }

        /** @return the symbols sorted, as given (no fix-ups), looked up as perf's tree of them in this order */
        SymbolTable sorted() {
            int[] order = order(start, n);
            long[] ks = new long[n];
            long[] ke = new long[n];
            for (int i = 0; i < n; i++) {
                ks[i] = start[order[i]];
                ke[i] = end[order[i]];
            }
            Names own = names();
            SymbolTable t = new SymbolTable(ks, ke, i -> own.symbol(order[i], ks[i], ke[i]));
            if (!overlaps(ks, ke)) {
                return t;
            }
            SymbolTree tree = new SymbolTree(n);
            int[] byNode = new int[n];
            for (int i = 0; i < n; i++) {
                tree.insert(i, start[i], end[i]);
            }
            for (int i = 0; i < n; i++) {
                byNode[order[i]] = i;
            }
            return t.withLookup(tree, byNode);
        }

        /** {@code choose_best_symbol}: true to keep {@code a} (the earlier), false to keep {@code b}. */
        private boolean choose(long lenA, int a, long lenB, int b) {
            if (lenB == 0 && lenA > 0) {
                return true;
            }
            if (lenA == 0 && lenB > 0) {
                return false;
            }
            boolean weakA = binding[a] == WEAK;
            boolean weakB = binding[b] == WEAK;
            if (weakB != weakA) {
                return weakB;
            }
            boolean globalA = binding[a] == GLOBAL;
            boolean globalB = binding[b] == GLOBAL;
            if (globalA != globalB) {
                return globalA;
            }
            int ua = underscores(a);
            int ub = underscores(b);
            if (ua != ub) {
                return ub > ua;
            }
            return nameBytes(a) >= nameBytes(b);
        }

        private int underscores(int k) {
            if (name[k] != null) {
                String s = name[k];
                int i = 0;
                while (i < s.length() && s.charAt(i) == '_') {
                    i++;
                }
                return i;
            }
            int i = 0;
            while (i < nameLength[k] && text[nameOffset[k] + i] == '_') {
                i++;
            }
            return i;
        }

        /** Names are bytes to perf ({@code strlen}); a string name is kept as ISO-8859-1 characters, one a byte. */
        private int nameBytes(int k) {
            return name[k] != null ? name[k].length() : nameLength[k];
        }

        private static long roundUp(long x) {
            return (x + PAGE - 1) & -PAGE;
        }
    }

    /**
     * What a builder was given to name its symbols, kept for making them later: each index's name (a string, or a
     * byte range of {@code text} where the string is null) and kind. Only indices below the builder's size at the
     * time are read; later additions to the builder do not change them.
     */
    private record Names(String[] names, byte[] text, int[] offsets, int[] lengths, boolean[] objects) {
        String name(int k) {
            String s = names[k];
            return s != null ? s : new String(text, offsets[k], lengths[k], StandardCharsets.ISO_8859_1);
        }

        Symbol symbol(int k, long start, long end) {
            return Symbol.of(name(k), start, end, objects[k]);
        }
    }
}
