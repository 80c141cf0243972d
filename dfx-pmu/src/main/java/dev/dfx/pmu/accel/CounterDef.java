package dev.dfx.pmu.accel;

import java.util.function.ToLongFunction;

/**
 * One counter of the registry: its id (the {@code config} value, as perf-dkms {@code counter_id_t}), name, block,
 * scope and how much one task adds to it at the task's location. Immutable.
 *
 * @param id          1..36, the {@code config} of the event
 * @param name        lower-case name, the events/ file name, e.g. {@code sq_waves}
 * @param block       the block whose slots it uses
 * @param scope       the level it has instances at
 * @param formula     the per-task increment, as text for {@code dfx list} (e.g. {@code waves})
 * @param perTask     the per-task increment
 */
public record CounterDef(int id, String name, Block block, Scope scope, String formula,
                         ToLongFunction<TaskActivity> perTask) {

    /** @return the increment one task makes */
    public long increment(TaskActivity task) {
        return perTask.applyAsLong(task);
    }

    /** @return the description {@code dfx list} shows, e.g. {@code SQ, per-WGP: +waves per task} */
    public String description() {
        return block + ", " + scope.label() + ": +" + formula + " per task";
    }
}
