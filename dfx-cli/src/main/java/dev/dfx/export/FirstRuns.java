package dev.dfx.export;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.util.Arrays;

/**
 * The first core run of every task in a run's swimlane records (the first core task record of the task in
 * {@link ChunkRecords} order, which is also the order {@link SwimlaneBars} draws them in): its start and function.
 * Read before anything is drawn, so the dependency arrows can be bound to the bars as they are written and the
 * orchestrator's submit bars named after the function. Each task gets a number ({@link #index}, in the order of
 * first runs) under which its start and function are kept in arrays: 24 to 48 bytes per task, nothing boxed. Not
 * thread-safe while read; afterwards read-only, so any thread may use it once it was safely published (a thread
 * started after {@link #read} returned).
 */
final class FirstRuns {
    private final LongIndex tasks = new LongIndex();
    private long[] startNs = new long[64];
    private int[] funcIds = new int[64];

    private FirstRuns() {
    }

    /**
     * @param swimlane the run's swimlane chunk file, or null when it has none
     * @return the first run of every task with a core task record
     * @throws IOException when the file cannot be read
     */
    static FirstRuns read(ChunkReader swimlane) throws IOException {
        FirstRuns f = new FirstRuns();
        if (swimlane != null) {
            CoreTaskRecord.View v = new CoreTaskRecord.View();
            ChunkRecords.forEach(swimlane, CoreTaskRecord.KIND, (core, seg, off) -> {
                v.wrap(seg, off);
                f.add(v.taskId(), v.startNs(), v.funcId());
            });
        }
        return f;
    }

    /**
     * @param taskIds runs' tasks, in record order
     * @param starts  their starts, ns
     * @param funcIds their functions
     * @return the first run of every task among them
     */
    static FirstRuns of(long[] taskIds, long[] starts, int[] funcIds) {
        FirstRuns f = new FirstRuns();
        for (int i = 0; i < taskIds.length; i++) {
            f.add(taskIds[i], starts[i], funcIds[i]);
        }
        return f;
    }

    private void add(long taskId, long start, int funcId) {
        int n = tasks.size();
        if (tasks.add(taskId) < n) {
            return; // a later run of the task
        }
        if (n == startNs.length) {
            startNs = Arrays.copyOf(startNs, 2 * n);
            funcIds = Arrays.copyOf(funcIds, 2 * n);
        }
        startNs[n] = start;
        funcIds[n] = funcId;
    }

    /** @return how many tasks ran on a core: the indexes are 0 to {@code count() - 1} */
    int count() {
        return tasks.size();
    }

    /** @return the task's number (its first run's rank among first runs), or -1 when it never ran on a core */
    int index(long taskId) {
        return tasks.index(taskId);
    }

    /** @return the start of task {@code index}'s first run, ns */
    long startNs(int index) {
        return startNs[index];
    }

    /** @return the function of task {@code index}'s first run */
    int funcId(int index) {
        return funcIds[index];
    }
}
