package dev.dfx.runtime.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The graph of one run: tasks in submit order and edges in resolution order (the schedulers resolve tasks
 * in submit order, so this order is deterministic for a given program). Immutable.
 *
 * @param tasks every submitted task
 * @param edges every resolved edge; one per (predecessor, successor, source, tensor, hazard), so a pair
 *              can have several
 */
public record TaskGraph(List<TaskInfo> tasks, List<Edge> edges) {
    /** Copies both lists. */
    public TaskGraph {
        tasks = List.copyOf(tasks);
        edges = List.copyOf(edges);
    }

    /** @return distinct (pred, succ) pairs as {@code long[2]}s, in first-seen order */
    public List<long[]> pairs() {
        Set<List<Long>> seen = new LinkedHashSet<>();
        for (Edge e : edges) {
            seen.add(List.of(e.pred(), e.succ()));
        }
        List<long[]> out = new ArrayList<>(seen.size());
        for (List<Long> p : seen) {
            out.add(new long[] {p.get(0), p.get(1)});
        }
        return out;
    }

    /** @return task id -> its metadata */
    public Map<Long, TaskInfo> byId() {
        Map<Long, TaskInfo> m = new HashMap<>(tasks.size() * 2);
        for (TaskInfo t : tasks) {
            m.put(t.taskId(), t);
        }
        return m;
    }
}
