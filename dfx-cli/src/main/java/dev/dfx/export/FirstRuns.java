package dev.dfx.export;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The first core run of every task in a run's swimlane records (the first core task record of the task in
 * {@link ChunkRecords} order, which is also the order {@link SwimlaneBars} draws them in): its start and function.
 * Read before anything is drawn, so the dependency arrows can be bound to the bars as they are written and the
 * orchestrator's submit bars named after the function. Holds one entry per task. Not thread-safe.
 */
final class FirstRuns {
    /** A task's first run: its start (ns) and function id. */
    record Run(long startNs, int funcId) {
    }

    private final Map<Long, Run> runs = new HashMap<>();

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
                f.runs.putIfAbsent(v.taskId(), new Run(v.startNs(), v.funcId()));
            });
        }
        return f;
    }

    /** @return the task's first run, or null when it never ran on a core (or its record was lost) */
    Run of(long taskId) {
        return runs.get(taskId);
    }
}
