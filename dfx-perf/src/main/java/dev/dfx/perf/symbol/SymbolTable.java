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

    private SymbolTable(long[] starts, Symbol[] symbols) {
        this.starts = starts;
        this.symbols = symbols;
    }

    /**
     * {@code symbols__find}: the symbol whose {@code [start, end)} holds {@code addr}.
     *
     * @param addr an address in the DSO's address space (unsigned)
     * @return the symbol, or {@code null}
     */
    public Symbol find(long addr) {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], addr) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return null;
        }
        Symbol s = symbols[found];
        return s.contains(addr) ? s : null;
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

    /** @return a table of {@code extra} symbols added to these, without fix-ups (perf's PLT entries) */
    SymbolTable plus(Builder extra) {
        Builder b = new Builder();
        for (Symbol s : symbols) {
            b.add(s.start(), s.end(), GLOBAL, s.name(), false);
        }
        for (int i = 0; i < extra.n; i++) {
            b.add(extra.start[i], extra.end[i], extra.binding[i], extra.name[i], false);
        }
        return b.sorted();
    }

    /**
     * Collects symbols in the order a DSO lists them, then builds the table. Not thread-safe.
     */
    public static final class Builder {
        private long[] start = new long[64];
        private long[] end = new long[64];
        private byte[] binding = new byte[64];
        private boolean[] module = new boolean[64];
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
            if (n == this.start.length) {
                int cap = n * 2;
                this.start = Arrays.copyOf(this.start, cap);
                this.end = Arrays.copyOf(this.end, cap);
                this.binding = Arrays.copyOf(this.binding, cap);
                this.module = Arrays.copyOf(this.module, cap);
                this.name = Arrays.copyOf(this.name, cap);
            }
            this.start[n] = start;
            this.end[n] = end;
            this.binding[n] = (byte) binding;
            this.module[n] = module;
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
            Integer[] order = sortedOrder();
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
            // symbols__fixup_duplicate: walk equal starts, keeping perf's choice of each pair
            boolean[] dropped = new boolean[m];
            int curr = 0;
            int next = 1;
            while (next < m) {
                if (s[curr] != s[next]) {
                    curr = next++;
                    continue;
                }
                if (choose(e[curr] - s[curr], order[curr], e[next] - s[next], order[next])) {
                    dropped[next++] = true;
                } else {
                    dropped[curr] = true;
                    curr = next++;
                }
            }
            int kept = 0;
            for (boolean d : dropped) {
                kept += d ? 0 : 1;
            }
            long[] ks = new long[kept];
            Symbol[] syms = new Symbol[kept];
            for (int i = 0, j = 0; i < m; i++) {
                if (!dropped[i]) {
                    ks[j] = s[i];
                    syms[j++] = new Symbol(name[order[i]], s[i], e[i]);
                }
            }
            return new SymbolTable(ks, syms);
        }

        /** @return the symbols sorted, as given (no fix-ups) */
        SymbolTable sorted() {
            Integer[] order = sortedOrder();
            long[] ks = new long[order.length];
            Symbol[] syms = new Symbol[order.length];
            for (int i = 0; i < order.length; i++) {
                int k = order[i];
                ks[i] = start[k];
                syms[i] = new Symbol(name[k], start[k], end[k]);
            }
            return new SymbolTable(ks, syms);
        }

        /** Stable by insertion for equal starts, as perf's tree inserts an equal start to the right. */
        private Integer[] sortedOrder() {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compareUnsigned(start[a], start[b]));
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
