package dev.dfx.export;

import dev.dfx.runtime.graph.Edge;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The dependency arrows of a run, planned before the bars are drawn so that each arrow is bound to the bars as they
 * are written: one arrow (a flow id, 1, 2, 3, ...) per distinct (predecessor, successor) pair of the replayed
 * dependency edges whose two tasks both have a first core run ({@link FirstRuns}) and whose predecessor did not
 * start after its successor; it leaves the predecessor's first core bar and ends at the successor's. Edges come in
 * resolution order, so all edges into one successor are consecutive and pairs are told apart per successor. Holds
 * the ids of arrows not yet drawn. Not thread-safe.
 */
final class DependencyFlows {
    /** Name of the arrows. */
    static final String NAME = "dependency";

    /** Arrow ids by task, in increasing order: grown by doubling (a task may have tens of thousands of arrows). */
    private final Map<Long, Ids> out = new HashMap<>();
    private final Map<Long, Ids> in = new HashMap<>();
    private long count;

    private DependencyFlows() {
    }

    /** @return no arrows */
    static DependencyFlows none() {
        return new DependencyFlows();
    }

    /**
     * @param edges the replayed dependency edges, in resolution order
     * @param runs  the tasks' first core runs
     * @return the arrows
     */
    static DependencyFlows of(List<Edge> edges, FirstRuns runs) {
        DependencyFlows f = new DependencyFlows();
        Set<Long> preds = new HashSet<>();
        long succOfPreds = 0;
        for (Edge e : edges) {
            if (preds.isEmpty() || e.succ() != succOfPreds) {
                preds.clear();
                succOfPreds = e.succ();
            }
            if (!preds.add(e.pred())) {
                continue;
            }
            FirstRuns.Run pred = runs.of(e.pred());
            FirstRuns.Run succ = runs.of(e.succ());
            if (pred == null || succ == null || pred.startNs() > succ.startNs()) {
                continue;
            }
            long id = ++f.count;
            append(f.out, e.pred(), id);
            append(f.in, e.succ(), id);
        }
        return f;
    }

    private static void append(Map<Long, Ids> ids, long task, long id) {
        ids.computeIfAbsent(task, t -> new Ids()).add(id);
    }

    /** A growing list of arrow ids. */
    private static final class Ids {
        private long[] ids = new long[1];
        private int n;

        void add(long id) {
            if (n == ids.length) {
                ids = Arrays.copyOf(ids, 2 * n);
            }
            ids[n++] = id;
        }

        long[] toArray() {
            return n == ids.length ? ids : Arrays.copyOf(ids, n);
        }
    }

    /** @return how many arrows there are */
    long count() {
        return count;
    }

    /**
     * @param taskId a task whose first core bar is being drawn
     * @return the arrows that leave or end at that bar; {@link SliceFlows#NONE} for a later call for the same task
     */
    SliceFlows take(long taskId) {
        Ids o = out.remove(taskId);
        Ids i = in.remove(taskId);
        if (o == null && i == null) {
            return SliceFlows.NONE;
        }
        return new SliceFlows(NAME, o == null ? new long[0] : o.toArray(), i == null ? new long[0] : i.toArray());
    }
}
