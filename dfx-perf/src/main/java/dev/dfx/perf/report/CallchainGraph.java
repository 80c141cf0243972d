package dev.dfx.perf.report;

import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.text.TextSink;
import java.util.List;

/**
 * Prints an entry's callchain tree as {@code perf report --stdio} does in its default graph mode
 * ({@code ui/stdio/hist.c callchain__fprintf_graph}, {@code -g graph,0.5}): branches with their share of the
 * event's total period ({@code --NN.NN%--}), pipes down the left for the levels still open, a lone chain that
 * carries the entry's whole period printed as a plain {@code ---} list, and branches under the minimum share left
 * out. Stateless apart from its settings.
 */
final class CallchainGraph {
    private static final String MARGIN = "            ";

    private final long totalPeriod;
    private final long minHit;
    private final boolean skipFirst;

    /**
     * @param totalPeriod the event's total period, which the percentages are of
     * @param minPercent  the least share a branch must carry to be printed ({@code callchain_param.min_percent})
     * @param skipFirst   whether the first frame of a lone chain is left out (sorting by symbol first: it is the
     *                    entry's own symbol)
     */
    CallchainGraph(long totalPeriod, double minPercent, boolean skipFirst) {
        this.totalPeriod = totalPeriod;
        // min_callchain_hits = total * (min_percent / 100), a double cut to u64
        this.minHit = (long) (totalPeriod * (minPercent / 100));
        this.skipFirst = skipFirst;
    }

    /** Prints {@code root}'s tree for an entry whose period (self, or children in children mode) is given. */
    void print(CallchainNode root, long parentPeriod, TextSink out) {
        List<CallchainNode> roots = root.sortedChildren(minHit);
        int leftMargin = 0;
        boolean any = false;
        if (!roots.isEmpty() && roots.size() == 1 && roots.getFirst().cumulHits() == parentPeriod) {
            CallchainNode lone = roots.getFirst();
            boolean printed = false;
            for (int i = 0; i < lone.frames.size(); i++) {
                if (i == 0 && skipFirst) {
                    continue;
                }
                if (!printed) {
                    margin(out, leftMargin).put("|\n");
                    margin(out, leftMargin).put("---");
                    leftMargin += 3;
                    printed = true;
                } else {
                    margin(out, leftMargin);
                }
                out.put(name(lone.frames.get(i))).put('\n');
                any = true;
            }
            roots = lone.sortedChildren(minHit);
        }
        any |= graph(roots, 1, 1, leftMargin, out);
        if (any) {
            out.put('\n');
        }
    }

    private boolean graph(List<CallchainNode> nodes, int depth, long mask, int leftMargin, TextSink out) {
        long newMask = mask;
        for (int n = 0; n < nodes.size(); n++) {
            CallchainNode child = nodes.get(n);
            if (n == nodes.size() - 1) {
                newMask &= ~(1L << (depth - 1));
            }
            margin(out, leftMargin);
            for (int i = 0; i < depth; i++) {
                out.put((mask & (1L << i)) != 0 ? "|          " : "           ");
            }
            out.put('\n');
            for (int f = 0; f < child.frames.size(); f++) {
                margin(out, leftMargin);
                for (int i = 0; i < depth; i++) {
                    out.put((newMask & (1L << i)) != 0 ? '|' : ' ');
                    if (f == 0 && i == depth - 1) {
                        out.put("--").put(Columns.fixed2(Columns.percent(child.cumulHits(), totalPeriod), 0))
                            .put("%--");
                    } else {
                        out.put("          ");
                    }
                }
                out.put(name(child.frames.get(f))).put('\n');
            }
            graph(child.sortedChildren(minHit), depth + 1, newMask | (1L << depth), leftMargin, out);
        }
        return !nodes.isEmpty();
    }

    private static TextSink margin(TextSink out, int leftMargin) {
        return out.put(MARGIN).put(" ".repeat(leftMargin));
    }

    /**
     * {@code callchain_list__sym_name}: the symbol ({@code (inlined)} after an inlined function's), or the address
     * as recorded ({@code %#lx}).
     */
    private static String name(ProfileFrame f) {
        if (f.sym() != null) {
            return f.sym().inlined() ? f.sym().name() + " (inlined)" : f.sym().name();
        }
        return f.ip() == 0 ? "0" : "0x" + Long.toHexString(f.ip());
    }
}
