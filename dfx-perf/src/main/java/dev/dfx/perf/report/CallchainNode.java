package dev.dfx.perf.report;

import dev.dfx.perf.profile.ProfileFrame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A node of a hist entry's callchain tree as perf builds it ({@code util/callchain.c}: {@code callchain_append},
 * {@code append_chain}, {@code split_add_child}): a run of frames shared by the chains below it, the period of the
 * chains that end here ({@code hit}) and of those that go on into the children ({@code children_hit}). A new chain
 * splits a node where it leaves it, so nodes break exactly where chains branch or end: a path-compressed trie.
 * Children are kept in perf's tree order, the reverse of its match order (a frame's DSO, then its symbol's start
 * or, without a symbol, its address), which decides the order among children of equal period. Not thread-safe.
 */
final class CallchainNode {
    private final DsoOrder dsos;
    final List<ProfileFrame> frames = new ArrayList<>();
    final List<CallchainNode> children = new ArrayList<>();
    long hit;
    long childrenHit;

    /** @param dsos the order of DSOs, which perf takes from their addresses in memory */
    CallchainNode(DsoOrder dsos) {
        this.dsos = dsos;
    }

    /** @return the period of the chains through this node ({@code callchain_cumul_hits}) */
    long cumulHits() {
        return hit + childrenHit;
    }

    /** {@code callchain_append}: adds a chain (frames in the order they are printed) of {@code period}. */
    void append(List<ProfileFrame> chain, long period) {
        if (!chain.isEmpty()) {
            appendChildren(chain, 0, period);
        }
    }

    /**
     * {@code callchain_merge}: appends every chain this tree holds to {@code dst} with its period, a node's own
     * chain before its children's, children in their order.
     */
    void mergeInto(CallchainNode dst) {
        mergeInto(dst, new ArrayList<>());
    }

    private void mergeInto(CallchainNode dst, List<ProfileFrame> prefix) {
        int mark = prefix.size();
        prefix.addAll(frames);
        if (hit > 0) {
            dst.append(List.copyOf(prefix), hit);
        }
        for (CallchainNode c : children) {
            c.mergeInto(dst, prefix);
        }
        prefix.subList(mark, prefix.size()).clear();
    }

    private void appendChildren(List<ProfileFrame> chain, int pos, long period) {
        int lo = 0;
        int hi = children.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            CallchainNode c = children.get(mid);
            // match_chain(existing, new) < 0 puts the new chain to the left: children run from the largest down
            int cmp = match(c.frames.getFirst(), chain.get(pos));
            if (cmp == 0) {
                c.appendHere(chain, pos, period);
                childrenHit += period;
                return;
            }
            if (cmp < 0) {
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        CallchainNode n = new CallchainNode(dsos);
        n.frames.addAll(chain.subList(pos, chain.size()));
        n.hit = period;
        children.add(lo, n);
        childrenHit += period;
    }

    /** {@code append_chain}: the chain's frame at {@code pos} matches this node's first frame. */
    private void appendHere(List<ProfileFrame> chain, int pos, long period) {
        int matched = 0;
        while (matched < frames.size() && pos + matched < chain.size()
            && match(chain.get(pos + matched), frames.get(matched)) == 0) {
            matched++;
        }
        int next = pos + matched;
        if (matched < frames.size()) {
            split(matched);
            if (next < chain.size()) {
                appendChildren(chain, next, period);
            } else {
                hit = period;
            }
            return;
        }
        if (next == chain.size()) {
            hit += period;
            return;
        }
        appendChildren(chain, next, period);
    }

    /** {@code split_add_child}: keeps the first {@code at} frames here, the rest (and the children) go to a child. */
    private void split(int at) {
        CallchainNode rest = new CallchainNode(dsos);
        rest.frames.addAll(frames.subList(at, frames.size()));
        frames.subList(at, frames.size()).clear();
        rest.children.addAll(children);
        rest.hit = hit;
        rest.childrenHit = childrenHit;
        children.clear();
        children.add(rest);
        childrenHit = rest.cumulHits();
        hit = 0;
    }

    /**
     * {@code sort_chain_graph_abs}: the children whose chains carry at least {@code minHit}, most period first;
     * children of equal period keep their match order.
     */
    List<CallchainNode> sortedChildren(long minHit) {
        List<CallchainNode> out = new ArrayList<>();
        for (CallchainNode c : children) {
            if (c.cumulHits() >= minHit) {
                out.add(c);
            }
        }
        out.sort(Comparator.comparingLong(CallchainNode::cumulHits).reversed());
        return out;
    }

    /**
     * perf's {@code match_chain} (CCKEY_FUNCTION): inlined functions by name alone (they share their symbol's
     * start); else the DSOs, then the symbols' starts, or the addresses.
     */
    private int match(ProfileFrame a, ProfileFrame b) {
        if (a.sym() != null && b.sym() != null && (a.sym().inlined() || b.sym().inlined())) {
            return a.sym().name().compareTo(b.sym().name());
        }
        int d = dsos.compare(a, b);
        if (d != 0) {
            return d;
        }
        long x = a.sym() != null && b.sym() != null ? a.sym().start() : a.ip();
        long y = a.sym() != null && b.sym() != null ? b.sym().start() : b.ip();
        return Long.compareUnsigned(x, y);
    }
}
