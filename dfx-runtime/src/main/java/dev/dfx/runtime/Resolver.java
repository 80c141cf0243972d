package dev.dfx.runtime;

import dev.dfx.record.ArgKind;
import dev.dfx.record.SubmitRecord;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.Hazard;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Resolves submitted tasks in submit order: finds each task's predecessors (explicit deps, then the
 * tensor map unless the task is in a manual scope), records the edges, and links the task to the
 * predecessors that have not finished. Used by one scheduler at a time, under the resolve lock.
 */
final class Resolver implements TensorMap.Sink<Task> {
    private final TensorMap<Task> map = new TensorMap<>();
    private final List<Edge> edges;
    private final AtomicLong depPoolHead;
    private final ArrayList<Task> preds = new ArrayList<>();
    private int firstEdgeOfTask;

    /**
     * @param edges       where edges are recorded, or null not to keep them
     * @param depPoolHead counter of dependency links made
     */
    Resolver(List<Edge> edges, AtomicLong depPoolHead) {
        this.edges = edges;
        this.depPoolHead = depPoolHead;
    }

    /** @return live tensor map entries (any thread) */
    int tensorMapEntries() {
        return map.liveEntries();
    }

    /** @return whether {@code t} is ready (every predecessor already finished) */
    boolean resolve(Task t) {
        preds.clear();
        firstEdgeOfTask = edges == null ? 0 : edges.size();
        for (int i = 0; i < t.deps.length; i++) {
            record(Edge.explicit(t.deps[i], t.id));
            if (t.depTasks[i] != null) {
                addPred(t.depTasks[i]);
            }
        }
        if ((t.flags & SubmitRecord.IN_MANUAL_SCOPE) == 0) {
            for (Arg a : t.args) {
                if (a.kind() == ArgKind.TENSOR) {
                    map.access(t, a.tensorId(), a.region(), a.role(), a.index(), this);
                }
            }
        }
        int linked = 0;
        for (int i = 0; i < preds.size(); i++) { // indexed: no iterator on the per-task path
            if (preds.get(i).addSuccessor(t)) {
                linked++;
            }
        }
        t.predCount = linked;
        depPoolHead.addAndGet(linked);
        return t.releaseOne();
    }

    /** Drops a released tensor's entries. */
    void release(Tensor tensor) {
        map.release(tensor.id());
    }

    @Override
    public void edge(Task pred, Task succ, int tensorId, int argIndex, Hazard hazard) {
        record(Edge.tensor(pred.id, succ.id, tensorId, argIndex, hazard));
        addPred(pred);
    }

    private void addPred(Task p) {
        for (int i = preds.size() - 1; i >= 0; i--) {
            if (preds.get(i) == p) {
                return;
            }
        }
        preds.add(p);
    }

    private void record(Edge e) {
        if (edges != null) {
            addOnce(edges, firstEdgeOfTask, e);
        }
    }

    /**
     * Keeps one edge per (pred, source, tensor, hazard) of the task being resolved.
     *
     * @param edges          every edge so far
     * @param firstEdgeOfTask index in {@code edges} of the task's first edge
     */
    static void addOnce(List<Edge> edges, int firstEdgeOfTask, Edge e) {
        for (int i = firstEdgeOfTask; i < edges.size(); i++) {
            Edge o = edges.get(i);
            if (o.pred() == e.pred() && o.source() == e.source() && o.tensorId() == e.tensorId()
                    && o.hazard() == e.hazard()) {
                return;
            }
        }
        edges.add(e);
    }
}
