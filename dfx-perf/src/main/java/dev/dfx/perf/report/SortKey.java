package dev.dfx.perf.report;

import java.util.Locale;

/**
 * The sort keys of {@code perf report --sort} that dfx implements ({@code util/sort.c}): each decides which samples
 * share a line ({@link #collapse}), how lines of equal overhead are ordered ({@link #order}), its column's width and
 * text. Comparisons are perf's: names as bytes, addresses as the signed difference perf computes, no DSO or symbol
 * after a known one. Stateless, but for {@link #TRACE}: comparing by it marks both entries' text as formatted
 * ({@link HistEntry#traceFormatted}), as perf formats it then.
 */
enum SortKey {
    /** {@code comm}: the thread's name at the sample. */
    COMM("Command"),
    /** {@code dso}: the DSO's short name. */
    DSO("Shared Object"),
    /** {@code sym}: the symbol, or the address where it is unknown. */
    SYM("Symbol"),
    /** {@code pid}: the thread, shown with its latest name. */
    PID("    Pid:Command"),
    /** {@code cpu}. */
    CPU("CPU"),
    /** {@code trace}: the tracepoint's text, as {@code perf script} prints it; {@code N/A} for other events. */
    TRACE("Trace output");

    /** {@code BITS_PER_LONG / 4}: hex digits of an unresolved address. */
    static final int ADDRESS_DIGITS = 16;

    final String header;

    SortKey(String header) {
        this.header = header;
    }

    /**
     * @param name a key as {@code --sort} or {@code -F} names it
     * @return the key, or null when dfx does not implement it
     */
    static SortKey named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "comm" -> COMM;
            case "dso" -> DSO;
            case "sym", "symbol" -> SYM;
            case "pid" -> PID;
            case "cpu" -> CPU;
            case "trace" -> TRACE;
            default -> null;
        };
    }

    /**
     * {@code se_cmp}/{@code se_collapse} as a comparator: 0 when {@code x} and {@code y} belong on one line; else
     * negative when perf keeps {@code x} before {@code y} in its tree of entries.
     */
    int collapse(HistEntry x, HistEntry y) {
        return switch (this) {
            case COMM -> {
                String a = x.comm();
                String b = y.comm();
                yield a == b ? 0 : a.compareTo(b); // a thread's samples share its name's String
            }
            case DSO -> dso(x, y);
            case SYM -> {
                if (x.sym == null && y.sym == null) {
                    yield Long.signum(x.ip - y.ip);
                }
                int d = dso(x, y);
                if (d != 0) {
                    yield d;
                }
                if (x.sym == null || y.sym == null) {
                    yield x.sym != null ? -1 : 1;
                }
                yield symbols(x, y);
            }
            case PID -> Integer.compare(x.thread.tid(), y.thread.tid());
            case CPU -> Integer.compare(x.cpu, y.cpu);
            case TRACE -> trace(x, y);
        };
    }

    /**
     * {@code sort__trace_cmp}: the texts as bytes, formatting both (perf formats an entry's text at its first
     * comparison); lines of an event that is not a tracepoint (no text) all compare equal.
     */
    private static int trace(HistEntry x, HistEntry y) {
        if (x == y || x.trace == null || y.trace == null) {
            return 0; // an entry with itself: java.util.TreeMap checks the first key so, perf compares none
        }
        x.traceFormatted = true;
        y.traceFormatted = true;
        return x.trace.compareTo(y.trace);
    }

    /**
     * {@code hist_entry__fast__sym_diff}: whether the entries' symbols differ (their addresses where neither has
     * one), as {@code _sort__sym_cmp} sees them, without the DSO.
     */
    static boolean symbolsDiffer(HistEntry x, HistEntry y) {
        if (x.sym == null && y.sym == null) {
            return x.ip != y.ip;
        }
        if (x.sym == null || y.sym == null) {
            return true;
        }
        return symbols(x, y) != 0;
    }

    /** {@code _sort__sym_cmp} of two entries with symbols. */
    private static int symbols(HistEntry x, HistEntry y) {
        if (x.sym == y.sym) {
            return 0; // the same symbol: same name and range
        }
        if (x.sym.inlined() || y.sym.inlined()) {
            // inlined functions share their symbol's range, so their names tell them apart
            int n = y.sym.name().compareTo(x.sym.name());
            if (n != 0) {
                return n;
            }
            if (x.sym.start() <= y.sym.end() && x.sym.end() >= y.sym.start()) {
                return 0;
            }
        }
        if (x.sym.start() != y.sym.start()) {
            return Long.signum(x.sym.start() - y.sym.start());
        }
        return Long.signum(x.sym.end() - y.sym.end());
    }

    /** {@code se_sort} (or {@code se_cmp}) as a comparator: negative when perf prints {@code x} before {@code y}. */
    int order(HistEntry x, HistEntry y) {
        if (this == SYM) {
            if (x.sym == null || y.sym == null) {
                return x.sym == null && y.sym == null ? 0 : x.sym != null ? -1 : 1;
            }
            return x.sym.name().compareTo(y.sym.name());
        }
        return collapse(x, y);
    }

    /** {@code _sort__dso_cmp} by short names; a known DSO comes before none. */
    private static int dso(HistEntry x, HistEntry y) {
        if (x.map == y.map) {
            return 0; // the same mapping, or both outside any
        }
        String a = x.shortDso();
        String b = y.shortDso();
        if (a == null || b == null) {
            return a == null && b == null ? 0 : a != null ? -1 : 1;
        }
        return a.compareTo(b);
    }

    /** {@code hists__calc_col_len}: the column length this entry asks for (0: none). */
    int length(HistEntry e) {
        return switch (this) {
            case COMM -> e.thread.comm().length();
            case DSO -> e.map != null ? e.shortDso().length() : 0;
            case SYM -> e.sym != null ? e.sym.name().length() + 4 : ADDRESS_DIGITS + 4 + 2;
            case PID -> e.thread.comm().length() + 8;
            case CPU -> 0;
            // hists__calc_col_len sees the text only where it was formatted before the line was placed
            case TRACE -> e.traceFormattedAtOutput ? e.trace.length() : 0;
        };
    }

    /** @return the entry's text in a column {@code width} wide, as perf's {@code se_snprintf} writes it */
    String text(HistEntry e, int width) {
        return switch (this) {
            case COMM -> Columns.left(e.comm(), width);
            case DSO -> Columns.left(e.map != null ? e.shortDso() : "[unknown]", width);
            case SYM -> symbol(e, width);
            case PID -> String.format("%7d:", e.thread.tid())
                + Columns.left(e.thread.comm(), Math.max(7, width) - 8);
            case CPU -> Columns.rightInt(e.cpu, width);
            // "%-.*s": cut to the column, not padded (the printer pads a column that is not the last)
            case TRACE -> Columns.cut(e.trace == null ? "N/A" : e.trace, width);
        };
    }

    private static String symbol(HistEntry e, int width) {
        StringBuilder b = new StringBuilder("[").append(e.level).append("] ");
        if (e.sym != null && e.map != null && e.sym.object()) {
            // a data object with its offset, not cut to the column: from the address the entry keeps (DSO-relative
            // for a sampled address, as recorded for a callchain entry, so perf prints a wrapped offset for the first)
            b.append(e.sym.name()).append("+0x").append(Long.toHexString(e.ip - e.map.unmapIp(e.sym.start())));
        } else if (e.sym != null && e.map != null) {
            String name = e.sym.name();
            b.append(name, 0, Math.min(name.length(), Math.max(0, width - b.length())));
            if (e.sym.inlined()) {
                b.append(" (inlined)");
            }
        } else {
            // "%-#.*llx": 16 digits, 0x before them unless the value is 0
            String hex = String.format("%016x", e.ip);
            b.append(e.ip == 0 ? hex : "0x" + hex);
        }
        return b.toString();
    }
}
