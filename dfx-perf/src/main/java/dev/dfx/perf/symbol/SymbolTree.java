package dev.dfx.perf.symbol;

import java.util.Arrays;

/**
 * perf's red-black tree of a DSO's symbols ({@code dso->symbols}), kept only to learn its shape: which symbol
 * perf's lookup ({@code symbols__find}) meets first when symbols overlap. perf inserts symbols by start address
 * (an equal start goes to the right, {@code __symbols__insert}) and erases the duplicates its fix-up drops, with the
 * Linux kernel's red-black tree ({@code lib/rbtree.c}: Cormen et al.'s insertion and deletion rebalancing; an
 * erased node with two children is replaced by its in-order successor, which takes over its colour). The same
 * operations in the same order give the same tree here, so the lookup returns what perf returns. Nodes are the
 * indices the caller gives; {@code O(log n)} per operation. Not thread-safe.
 */
final class SymbolTree {
    private static final int NIL = -1;

    private int[] left;
    private int[] right;
    private int[] parent;
    private boolean[] red;
    private long[] start;
    private long[] end;
    private int root = NIL;

    /** @param capacity the largest node index plus one */
    SymbolTree(int capacity) {
        left = new int[capacity];
        right = new int[capacity];
        parent = new int[capacity];
        red = new boolean[capacity];
        start = new long[capacity];
        end = new long[capacity];
    }

    /** Room for nodes up to {@code capacity - 1}. */
    void ensureCapacity(int capacity) {
        if (capacity > left.length) {
            left = Arrays.copyOf(left, capacity);
            right = Arrays.copyOf(right, capacity);
            parent = Arrays.copyOf(parent, capacity);
            red = Arrays.copyOf(red, capacity);
            start = Arrays.copyOf(start, capacity);
            end = Arrays.copyOf(end, capacity);
        }
    }

    /** {@code __symbols__insert}: node {@code n} with {@code [s, e)}, to the right of equal starts. */
    void insert(int n, long s, long e) {
        start[n] = s;
        end[n] = e;
        left[n] = NIL;
        right[n] = NIL;
        int p = NIL;
        int at = root;
        boolean goLeft = false;
        while (at != NIL) {
            p = at;
            goLeft = Long.compareUnsigned(s, start[at]) < 0;
            at = goLeft ? left[at] : right[at];
        }
        parent[n] = p;
        red[n] = true;
        if (p == NIL) {
            root = n;
        } else if (goLeft) {
            left[p] = n;
        } else {
            right[p] = n;
        }
        insertFixup(n);
    }

    /** Sets a node's end (the end fix-up changes ends only, never the shape). */
    void setEnd(int n, long e) {
        end[n] = e;
    }

    /**
     * {@code symbols__find}: walks from the root, left when {@code ip} is below a node's start, right when it is at or
     * past its end (a node without size holds its own start), and returns the first node that holds it.
     *
     * @return the node, or -1
     */
    int find(long ip) {
        int n = root;
        while (n != NIL) {
            if (Long.compareUnsigned(ip, start[n]) < 0) {
                n = left[n];
            } else if (Long.compareUnsigned(ip, end[n]) > 0 || (ip == end[n] && ip != start[n])) {
                n = right[n];
            } else {
                return n;
            }
        }
        return NIL;
    }

    private void insertFixup(int n) {
        while (true) {
            int p = parent[n];
            if (p == NIL) {
                red[n] = false;
                return;
            }
            if (!red[p]) {
                return;
            }
            int g = parent[p];
            boolean parentIsLeft = left[g] == p;
            int uncle = parentIsLeft ? right[g] : left[g];
            if (uncle != NIL && red[uncle]) {
                red[uncle] = false;
                red[p] = false;
                red[g] = true;
                n = g;
                continue;
            }
            int[] outer = parentIsLeft ? left : right;
            int[] inner = parentIsLeft ? right : left;
            if (n == inner[p]) {
                rotate(p, inner);
                p = n;
            }
            rotate(g, outer);
            red[p] = false;
            red[g] = true;
            return;
        }
    }

    /** {@code rb_erase}. */
    void erase(int n) {
        int child;
        int rebalance;
        boolean removedBlack;
        if (left[n] == NIL || right[n] == NIL) {
            child = left[n] == NIL ? right[n] : left[n];
            int p = parent[n];
            replace(n, child, p);
            if (child != NIL) {
                // the only child of a one-child node is red under a black node: it takes the node's place and colour
                red[child] = red[n];
                return;
            }
            removedBlack = !red[n];
            rebalance = p;
        } else {
            int succ = right[n];
            while (left[succ] != NIL) {
                succ = left[succ];
            }
            int p;
            child = right[succ];
            if (succ == right[n]) {
                p = succ;
            } else {
                p = parent[succ];
                left[p] = child;
                if (child != NIL) {
                    parent[child] = p;
                }
                right[succ] = right[n];
                parent[right[n]] = succ;
            }
            left[succ] = left[n];
            parent[left[n]] = succ;
            replace(n, succ, parent[n]);
            removedBlack = !red[succ];
            red[succ] = red[n];
            if (child != NIL) {
                red[child] = false;
                return;
            }
            rebalance = p;
        }
        if (removedBlack && rebalance != NIL) {
            eraseFixup(rebalance);
        }
    }

    /** Puts {@code by} where {@code n} hangs under {@code p}. */
    private void replace(int n, int by, int p) {
        if (by != NIL) {
            parent[by] = p;
        }
        if (p == NIL) {
            root = by;
        } else if (left[p] == n) {
            left[p] = by;
        } else {
            right[p] = by;
        }
    }

    /** Rebalancing after a black leaf left {@code p}: the missing black is on the side where {@code p} has no node. */
    private void eraseFixup(int p) {
        int n = NIL;
        while (true) {
            // the side short of a black, and its mirror image: one case analysis serves both
            int[] near = n != right[p] ? left : right;
            int[] far = near == left ? right : left;
            int sibling = far[p];
            if (red[sibling]) {
                rotate(p, far);
                red[sibling] = false;
                red[p] = true;
                sibling = far[p];
            }
            int outer = far[sibling];
            if (outer == NIL || !red[outer]) {
                int inner = near[sibling];
                if (inner == NIL || !red[inner]) {
                    red[sibling] = true;
                    if (red[p]) {
                        red[p] = false;
                    } else {
                        n = p;
                        p = parent[n];
                        if (p != NIL) {
                            continue;
                        }
                    }
                    return;
                }
                rotate(sibling, near);
                red[inner] = false;
                red[sibling] = true;
                outer = sibling;
                sibling = inner;
            }
            rotate(p, far);
            red[sibling] = red[p];
            red[p] = false;
            red[outer] = false;
            return;
        }
    }

    /** Lifts {@code x}'s child on side {@code up} into its place ({@code right}: a left rotation). */
    private void rotate(int x, int[] up) {
        int[] down = up == right ? left : right;
        int y = up[x];
        up[x] = down[y];
        if (down[y] != NIL) {
            parent[down[y]] = x;
        }
        replace(x, y, parent[x]);
        down[y] = x;
        parent[x] = y;
    }

    /**
     * Checks the red-black properties and the order (for tests).
     *
     * @return the black height, or -1 when a property fails
     */
    int check() {
        if (root != NIL && (red[root] || parent[root] != NIL)) {
            return -1;
        }
        return check(root);
    }

    private int check(int n) {
        if (n == NIL) {
            return 1;
        }
        int l = left[n];
        int r = right[n];
        if (l != NIL && (parent[l] != n || Long.compareUnsigned(start[l], start[n]) > 0 || red[n] && red[l])) {
            return -1;
        }
        if (r != NIL && (parent[r] != n || Long.compareUnsigned(start[r], start[n]) < 0 || red[n] && red[r])) {
            return -1;
        }
        int hl = check(l);
        int hr = check(r);
        if (hl < 0 || hl != hr) {
            return -1;
        }
        return hl + (red[n] ? 0 : 1);
    }

    /** @return the root node, -1 when empty (for tests) */
    int root() {
        return root;
    }

    /** @return a node's left child, -1 for none (for tests) */
    int left(int n) {
        return left[n];
    }

    /** @return a node's right child, -1 for none (for tests) */
    int right(int n) {
        return right[n];
    }
}
