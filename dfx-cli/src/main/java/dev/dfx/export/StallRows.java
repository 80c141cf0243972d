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

    /**
     * @param s the lane's subsystem
     * @param l the lane
     * @return how a summary names the lane's writer: {@code subsystem kind role instance} (a thread of the embedded
     *         runtime), unless the layout knows the thread better
     */
    default String label(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        return s.name() + " " + l.kind() + " " + l.role() + " " + l.instance();
    }
}
