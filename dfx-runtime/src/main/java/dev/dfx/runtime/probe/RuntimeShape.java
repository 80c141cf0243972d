package dev.dfx.runtime.probe;

import dev.dfx.record.CoreType;

/**
 * The fixed shape of one run, given to {@link Probe#start} so a recorder can lay out its lanes.
 *
 * @param schedulers scheduler threads (lanes {@code 0..schedulers-1})
 * @param cores      core threads (lanes {@code 0..cores-1})
 * @param rings      task rings (task id {@code ring << 32 | local}, ring = min(scope depth, rings - 1))
 * @param window     task window of each ring: tasks submitted but not yet retired, at most
 */
public record RuntimeShape(int schedulers, int cores, int rings, int window) {
    /** @return the type of core {@code core}: the embedded runtime's cores are all {@link CoreType#CPU} */
    public CoreType coreType(int core) {
        return CoreType.CPU;
    }

    /** @return the scheduler that dispatches to and collects from core {@code core}: {@code core % schedulers} */
    public int schedulerOf(int core) {
        return core % schedulers;
    }
}
