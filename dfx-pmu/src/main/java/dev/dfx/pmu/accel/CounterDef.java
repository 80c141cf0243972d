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
 * @param waveSize    the wave size it counts on (32 or 64; 0: every architecture)
 * @param formula     the per-task increment, as text for {@code dfx list} (e.g. {@code waves})
 * @param perTask     the per-task increment (on an architecture of its wave size)
 */
public record CounterDef(int id, String name, Block block, Scope scope, int waveSize, String formula,
                         ToLongFunction<TaskActivity> perTask) {

    /** @return the increment one task makes: 0 on an architecture whose wave size is not the counter's */
    public long increment(TaskActivity task) {
        return counts(task.waveSize()) ? perTask.applyAsLong(task) : 0;
    }

    /**
     * The description {@code dfx list} shows for an architecture: the block, the level the counter has instances
     * at there, and what one task adds, e.g. {@code SQ, per-WGP: +waves per task} on gfx12,
     * {@code SQ, per-SA (gfx9 has no WGPs): +waves per task} on gfx9, and
     * {@code SQ, per-WGP: always 0 (counts insts on wave64; gfx12 runs wave32)} for a counter of the other wave size.
     *
     * @param arch the architecture
     * @return the description, one line
     */
    public String description(Architecture arch) {
        String what = counts(arch.waveSize()) ? "+" + formula + (waveSize == 0 ? "" : " on wave" + waveSize) + " per task"
                : "always 0 (counts " + formula + " on wave" + waveSize + "; " + arch.name() + " runs wave"
                + arch.waveSize() + ")";
        return block + ", " + scope.label(arch) + ": " + what;
    }

    private boolean counts(int archWaveSize) {
        return waveSize == 0 || waveSize == archWaveSize;
    }
}
