package dev.dfx.runtime.subsystem.scopes;

import dev.dfx.record.ScopePhase;
import dev.dfx.record.ScopeRecord;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The maxima of scopes.jsonl's header, computed from the records in the order the orchestrator wrote them. A record
 * holds each resource as a (tail, head) pair of cumulative counters, so {@code head - tail} is what was live at that
 * instant; but a scope's records are written at its entry and exit, when its own allocations are not yet made or
 * already released. So each maximum is also taken over every scope's <em>high water</em>, {@code exit.head -
 * entry.tail}: what was live when it opened plus everything allocated inside it, the bound the reference's
 * {@code scope_stats_plot.py} calls {@code scope_high_water}. Task window and dependency pool counters are 32-bit
 * and wrap; their differences are taken modulo 2^32. Scopes are paired by nesting (an exit closes the innermost open
 * entry of its depth); an entry or exit whose partner was lost counts only for its own instant. Not thread-safe.
 */
final class ScopeHighWater {
    private final Deque<long[]> open = new ArrayDeque<>(); // {depth, task tail, heap tail, dep pool tail}
    private long depth;
    private long taskWindow;
    private long heap;
    private long depPool;
    private long tensorMap;

    /** Takes one record into account. */
    void add(ScopeRecord.View v) {
        depth = Math.max(depth, v.depth());
        tensorMap = Math.max(tensorMap, v.tensorMapUsed());
        taskWindow = Math.max(taskWindow, wrapped(v.taskEnd(), v.taskStart()));
        heap = Math.max(heap, v.heapEnd() - v.heapStart());
        depPool = Math.max(depPool, wrapped(v.depPoolEnd(), v.depPoolStart()));
        if (v.phase() == ScopePhase.BEGIN) {
            open.push(new long[] {v.depth(), v.taskStart(), v.heapStart(), v.depPoolStart()});
            return;
        }
        while (!open.isEmpty() && open.peek()[0] > v.depth()) {
            open.pop(); // entries whose exit was lost
        }
        if (!open.isEmpty() && open.peek()[0] == v.depth()) {
            long[] entry = open.pop();
            taskWindow = Math.max(taskWindow, wrapped(v.taskEnd(), (int) entry[1]));
            heap = Math.max(heap, v.heapEnd() - entry[2]);
            depPool = Math.max(depPool, wrapped(v.depPoolEnd(), (int) entry[3]));
        }
    }

    private static long wrapped(int head, int tail) {
        return Integer.toUnsignedLong(head - tail);
    }

    long depthMax() {
        return depth;
    }

    long taskWindowMax() {
        return taskWindow;
    }

    long heapMax() {
        return heap;
    }

    long depPoolMax() {
        return depPool;
    }

    long tensorMapMax() {
        return tensorMap;
    }
}
