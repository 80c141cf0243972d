package dev.dfx.export;

import dev.dfx.runtime.graph.Edge;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The dependency arrows of a run, planned before the bars are drawn so that each arrow is bound to the bars as they
 * are written: one arrow (a flow id, 1, 2, 3, ...) per distinct (predecessor, successor) pair of the replayed
 * dependency edges whose two tasks both have a first core run ({@link FirstRuns}) and whose predecessor did not
 * start after its successor; it leaves the predecessor's first core bar and ends at the successor's. Edges come in
 * resolution order, so all edges into one successor are consecutive and pairs are told apart per successor.
 *
 * <p>The arrows are kept by task number ({@link FirstRuns#index}) in two compressed tables, the arrows leaving each
 * task and those ending at it, each in increasing id order: 24 bytes per arrow and 8 per task, nothing boxed (a run
 * may have millions of edges, one task tens of thousands of arrows). Not thread-safe.
 */
final class DependencyFlows {
    /** Name of the arrows. */
    static final String NAME = "dependency";
    private static final long[] NO_IDS = new long[0];

    private final FirstRuns runs;
    private final Table out;
    private final Table in;
    private final BitSet taken = new BitSet();

    private DependencyFlows(FirstRuns runs, Table out, Table in) {
        this.runs = runs;
        this.out = out;
        this.in = in;
    }

    /** @return no arrows */
    static DependencyFlows none() {
        return new DependencyFlows(null, null, null);
    }

    /**
     * @param edges the replayed dependency edges, in resolution order
     * @param runs  the tasks' first core runs
     * @return the arrows
     */
    static DependencyFlows of(List<Edge> edges, FirstRuns runs) {
        int tasks = runs.count();
        int[] from = new int[16];
        int[] to = new int[16];
        int count = 0;
        // the successor group (1, 2, ...) in which each predecessor was last seen: a pair repeats only within one
        int[] seenIn = new int[tasks];
        int group = 0;
        long succOfGroup = 0;
        for (Edge e : edges) {
            if (group == 0 || e.succ() != succOfGroup) {
                group++;
                succOfGroup = e.succ();
            }
            int pred = runs.index(e.pred());
            int succ = runs.index(e.succ());
            if (pred < 0 || succ < 0 || seenIn[pred] == group) {
                continue;
            }
            seenIn[pred] = group;
            if (runs.startNs(pred) > runs.startNs(succ)) {
                continue;
            }
            if (count == from.length) {
                from = Arrays.copyOf(from, 2 * count);
                to = Arrays.copyOf(to, 2 * count);
            }
            from[count] = pred;
            to[count] = succ;
            count++;
        }
        return new DependencyFlows(runs, Table.of(from, count, tasks), Table.of(to, count, tasks));
    }

    /** @return how many arrows there are */
    long count() {
        return out == null ? 0 : out.ids.length;
    }

    /**
     * @param taskId a task whose first core bar is being drawn
     * @return the arrows that leave or end at that bar; {@link SliceFlows#NONE} for a later call for the same task
     */
    SliceFlows take(long taskId) {
        int task = runs == null ? -1 : runs.index(taskId);
        if (task < 0 || taken.get(task)) {
            return SliceFlows.NONE;
        }
        taken.set(task);
        long[] o = out.ids(task);
        long[] i = in.ids(task);
        return o.length == 0 && i.length == 0 ? SliceFlows.NONE : new SliceFlows(NAME, o, i);
    }

    /**
     * Arrow ids by task, compressed: the ids of task {@code t} are {@code ids[start[t]]} to
     * {@code ids[start[t + 1] - 1]}, increasing.
     */
    private record Table(int[] start, long[] ids) {
        /** @param task the task at one end of each arrow, by arrow ({@code task[k]} for arrow id {@code k + 1}) */
        static Table of(int[] task, int count, int tasks) {
            int[] start = new int[tasks + 1];
            for (int k = 0; k < count; k++) {
                start[task[k] + 1]++;
            }
            for (int t = 0; t < tasks; t++) {
                start[t + 1] += start[t];
            }
            int[] next = Arrays.copyOf(start, tasks);
            long[] ids = new long[count];
            for (int k = 0; k < count; k++) {
                ids[next[task[k]]++] = k + 1; // arrows in id order: each task's ids stay increasing
            }
            return new Table(start, ids);
        }

        long[] ids(int task) {
            int from = start[task];
            int to = start[task + 1];
            return from == to ? NO_IDS : Arrays.copyOfRange(ids, from, to);
        }
    }
}
