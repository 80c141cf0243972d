package dev.dfx.export;

import dev.dfx.rundir.RunManifest;

/**
 * Where a lane's writer thread has its loss rows in a trace, right under the thread's own rows: the stall row, which
 * gets the lane's {@code STALL} slices ({@link StallMarks}), and the drop row, which gets its {@code DROPPED} slices
 * ({@link DropMarks}). They are two rows because a drop window the host recorded (a collector that threw, stop) may
 * partly overlap a stall of the writer thread, and slices of one row must nest. Not thread-safe.
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
     * @return the drop row of the thread that writes the lane, named on first use
     */
    Row dropRow(RunManifest.SubsystemReport s, RunManifest.Lane l);

    /**
     * @param s the lane's subsystem
     * @param l the lane
     * @return the process of the thread that writes the lane (where its counter tracks go); names no row
     */
    int pid(RunManifest.SubsystemReport s, RunManifest.Lane l);

    /**
     * @param s the queue's subsystem
     * @param q a ready queue (one per writer thread)
     * @return the process of the thread that publishes to the queue (where its counter track goes); names no row
     */
    int pid(RunManifest.SubsystemReport s, RunManifest.Queue q);

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
