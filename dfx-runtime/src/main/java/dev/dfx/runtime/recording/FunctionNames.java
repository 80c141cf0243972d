package dev.dfx.runtime.recording;

import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.TaskView;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Function id to name, as the orchestrator submits them (records carry only the id; run.json keeps the names so a
 * trace can label its bars). Orchestrator thread writes; {@link #names()} is read after the run (the runtime's
 * joins order them).
 */
final class FunctionNames implements OrchestratorProbe {
    private final Map<Integer, String> names = new TreeMap<>();
    private String[] seen = new String[16];

    @Override
    public void submitted(TaskView task, long startNs, long endNs, long windowWaitNs) {
        int id = task.funcId();
        if (id >= 0 && (id >= seen.length || seen[id] == null)) {
            if (id >= seen.length) {
                seen = Arrays.copyOf(seen, Math.max(id + 1, seen.length * 2));
            }
            seen[id] = task.funcName();
            names.put(id, task.funcName());
        }
    }

    /** @return the names seen, by function id */
    Map<Integer, String> names() {
        return Map.copyOf(names);
    }
}
