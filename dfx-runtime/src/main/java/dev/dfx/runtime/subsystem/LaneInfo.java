package dev.dfx.runtime.subsystem;

import dev.dfx.chunk.BufferKind;
import dev.dfx.rundir.ThreadRole;

/**
 * One lane of a subsystem's pipeline as the run directory names it. Immutable.
 *
 * @param lane     the pipeline's lane index
 * @param kind     the records the lane carries
 * @param role     which runtime thread writes it
 * @param instance which one: core, scheduler or 0 for the orchestrator (the chunk file's lane number)
 * @param producer the pipeline's producer index of that thread
 */
public record LaneInfo(int lane, BufferKind kind, ThreadRole role, int instance, int producer) {
    /** @return the kind's id in the subsystem (its index in {@code Subsystem.kinds()}, the chunk file's kind id) */
    public int kindId() {
        return kind.id();
    }
}
