package dev.dfx.export;

import dev.dfx.rundir.RunManifest;

/**
 * Where a lane's writer thread has its stall row in a trace: the row that gets the lane's {@code STALL} and
 * {@code DROPPED} slices ({@link StallMarks}, {@link DropMarks}), right under the thread's own rows. Not thread-safe.
 */
interface StallRows {
    /** A row of the trace. */
    record Row(int pid, int tid) {
    }

    /**
     * @param s the lane's subsystem
     * @param l the lane
     * @return the stall row of the thread that writes the lane, named on first use
     */
    Row stallRow(RunManifest.SubsystemReport s, RunManifest.Lane l);
}
