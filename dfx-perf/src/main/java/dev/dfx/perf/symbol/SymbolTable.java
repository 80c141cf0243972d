package dev.dfx.perf.symbol;

import java.util.Arrays;

/**
 * The symbols of one DSO sorted by start address (unsigned), looked up by binary search: {@code O(log n)} per
 * address, no allocation. Built with perf's fix-ups ({@code util/symbol.c}): a symbol without size ends where
 * the next one starts ({@code symbols__fixup_end}), then of symbols with the same start one is kept
 * ({@code symbols__fixup_duplicate}, {@code choose_best_symbol}). Immutable and thread-safe once built.
 */
public final class SymbolTable {
    /** {@code STB_LOCAL}. */
    public static final int LOCAL = 0;
    /** {@code STB_GLOBAL}. */
    public static final int GLOBAL = 1;
    /** {@code STB_WEAK}. */
    public static final int WEAK = 2;

    /** A table without symbols. */
    public static final SymbolTable EMPTY = new SymbolTable(new long[0], new Symbol[0]);

    private static final long PAGE = 4096;

    private final long[] starts;
    private final Symbol[] symbols;
    /** Where symbols overlap (or one has no size): perf's lookup result from each address on; else null. */
    private final long[] segmentStarts;
    private final Symbol[] segments;

    private SymbolTable(long[] starts, Symbol[] symbols) {
        this(starts, symbols, null, null);
    }

    private SymbolTable(long[] starts, Symbol[] symbols, long[] segmentStarts, Symbol[] segments) {
        this.starts = starts;
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
            return i < 0 ? null : segments[i];
        }
        int found = floor(starts, addr);
        if (found < 0) {
            return null;
        }
        Symbol s = symbols[found];
        return s.contains(addr) ? s : null;
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
        return symbols.length;
    }

    /** @return the symbol at {@code index} in address order */
    public Symbol get(int index) {
        return symbols[index];
    }

    /** @return the first symbol's start ({@code map__fixup_start}); the table must not be empty */
    public long start() {
        return symbols[0].start();
    }

    /** @return the last symbol's end ({@code map__fixup_end}); the table must not be empty */
    public long end() {
        return symbols[symbols.length - 1].end();
    }

    /** @return whether a symbol reaches past the next one's start, or one has no size (perf's search differs) */
    private boolean overlaps() {
        for (int i = 0; i < symbols.length; i++) {
            Symbol sym = symbols[i];
            if (sym.start() == sym.end()
                || i + 1 < symbols.length && Long.compareUnsigned(sym.end(), symbols[i + 1].start()) > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The same table, looked up through perf's tree: its search is constant between two consecutive symbol starts
     * or ends (every comparison it makes has the same outcome there), except that a symbol without size holds its
     * own start only; so it is asked once per such range and the answers are kept as sorted segments.
     *
     * @param tree   perf's tree of these symbols
     * @param byNode the symbol of each tree node
     */
    private SymbolTable withLookup(SymbolTree tree, Symbol[] byNode) {
        long[] points = new long[symbols.length * 3];
        int k = 0;
        for (Symbol sym : symbols) {
            points[k++] = sym.start();
            points[k++] = sym.end();
            if (sym.start() == sym.end()) {
                points[k++] = sym.start() + 1;
            }
        }
        long[] sortedPoints = Arrays.copyOf(points, k);
        for (int i = 0; i < k; i++) {
            sortedPoints[i] ^= Long.MIN_VALUE; // unsigned order through a signed sort
        }
        Arrays.sort(sortedPoints);
        long[] from = new long[k];
        Symbol[] hit = new Symbol[k];
        int nSeg = 0;
        for (int i = 0; i < k; i++) {
            long p = sortedPoints[i] ^ Long.MIN_VALUE;
            if (i > 0 && sortedPoints[i] == sortedPoints[i - 1]) {
                continue;
            }
            int node = tree.find(p);
            Symbol sym = node < 0 ? null : byNode[node];
            if (nSeg > 0 && hit[nSeg - 1] == sym) {
                continue;
            }
            from[nSeg] = p;
            hit[nSeg++] = sym;
        }
        return new SymbolTable(starts, symbols, Arrays.copyOf(from, nSeg), Arrays.copyOf(hit, nSeg));
    }

    /**
     * Collects symbols in the order a DSO lists them, then builds the table. Not thread-safe.
     */
    public static final class Builder {
        private long[] start = new long[64];
        private long[] end = new long[64];
        private byte[] binding = new byte[64];
        private boolean[] module = new boolean[64];
        private boolean[] object = new boolean[64];
        private String[] name = new String[64];
        private int n;

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
            if (n == this.start.length) {
                int cap = n * 2;
                this.start = Arrays.copyOf(this.start, cap);
                this.end = Arrays.copyOf(this.end, cap);
                this.binding = Arrays.copyOf(this.binding, cap);
                this.module = Arrays.copyOf(this.module, cap);
                this.object = Arrays.copyOf(this.object, cap);
                this.name = Arrays.copyOf(this.name, cap);
            }
            this.start[n] = start;
            this.end[n] = end;
            this.binding[n] = (byte) binding;
            this.module[n] = module;
            this.object[n] = object;
            this.name[n] = name;
            n++;
            return this;
        }

        String nameAt(int i) {
            return name[i];
        }

        long startAt(int i) {
            return start[i];
        }

        /** @return how many symbols were added */
        public int size() {
            return n;
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
            int[] order = sortedOrder();
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
            long[] fixedEnd = new long[n];
            Builder all = new Builder();
            for (int i = 0; i < m; i++) {
                fixedEnd[order[i]] = e[i];
                if (!dropped[i]) {
                    all.add(s[i], e[i], binding[order[i]], name[order[i]], false, object[order[i]]);
                }
            }
            for (int i = 0; i < later.n; i++) {
                all.add(later.start[i], later.end[i], later.binding[i], later.name[i], false, later.object[i]);
            }
            SymbolTable t = all.plain();
            if (!t.overlaps()) {
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
            // the tree's nodes are builder indices (the later ones after them); the survivors are the table's
            Symbol[] byNode = new Symbol[n + later.n];
            for (int i = 0; i < m; i++) {
                if (!dropped[i]) {
                    byNode[order[i]] = Symbol.of(name[order[i]], s[i], e[i], object[order[i]]);
                }
            }
            for (int i = 0; i < later.n; i++) {
                byNode[n + i] = Symbol.of(later.name[i], later.start[i], later.end[i], later.object[i]);
            }
            return t.withLookup(tree, byNode);
        }

        /** @return the symbols sorted, as given (no fix-ups), looked up as perf's tree of them in this order */
        SymbolTable sorted() {
            int[] order = sortedOrder();
            SymbolTable t = plain();
            if (!t.overlaps()) {
                return t;
            }
            SymbolTree tree = new SymbolTree(n);
            Symbol[] byNode = new Symbol[n];
            for (int i = 0; i < n; i++) {
                tree.insert(i, start[i], end[i]);
            }
            for (int i = 0; i < order.length; i++) {
                byNode[order[i]] = t.symbols[i];
            }
            return t.withLookup(tree, byNode);
        }

        /** @return the symbols sorted, stable for equal starts, as given */
        private SymbolTable plain() {
            int[] order = sortedOrder();
            long[] ks = new long[order.length];
            Symbol[] syms = new Symbol[order.length];
            for (int i = 0; i < order.length; i++) {
                int k = order[i];
                ks[i] = start[k];
                syms[i] = Symbol.of(name[k], start[k], end[k], object[k]);
            }
            return new SymbolTable(ks, syms);
        }

        /**
         * Stable by insertion for equal starts, as perf's tree inserts an equal start to the right. Symbols given in
         * address order (kallsyms lists the kernel's so, and a table built from a table is) keep their order without a
         * sort.
         */
        private int[] sortedOrder() {
            int[] order = new int[n];
            boolean ascending = true;
            for (int i = 0; i < n; i++) {
                order[i] = i;
                ascending &= i == 0 || Long.compareUnsigned(start[i - 1], start[i]) <= 0;
            }
            if (ascending) {
                return order;
            }
            Integer[] boxed = new Integer[n];
            for (int i = 0; i < n; i++) {
                boxed[i] = i;
            }
            Arrays.sort(boxed, (a, b) -> Long.compareUnsigned(start[a], start[b]));
            for (int i = 0; i < n; i++) {
                order[i] = boxed[i];
            }
            return order;
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
            int ua = underscores(name[a]);
            int ub = underscores(name[b]);
            if (ua != ub) {
                return ub > ua;
            }
            int na = utf8Length(name[a]);
            int nb = utf8Length(name[b]);
            return na >= nb;
        }

        private static int underscores(String s) {
            int i = 0;
            while (i < s.length() && s.charAt(i) == '_') {
                i++;
            }
            return i;
        }

        /** Names are bytes to perf ({@code strlen}); they are kept as ISO-8859-1 characters, one per byte. */
        private static int utf8Length(String s) {
            return s.length();
        }

        private static long roundUp(long x) {
            return (x + PAGE - 1) & -PAGE;
        }
    }
}
