package dev.dfx.pmu.accel;

/**
 * What one executed task did, in the quantities the counters are derived from. All integer arithmetic, so a
 * test can compute every counter by hand:
 * <ul>
 *   <li>{@code cycles = durationNs * clockMhz / 1000}</li>
 *   <li>{@code waves = 1 + flops / (64 * waveSize)} (a wave retires 64 VALU instructions of waveSize lanes)</li>
 *   <li>{@code valu = ceil(flops / waveSize)}; {@code salu = 4 * waves}; {@code smem = 2 * waves};
 *       {@code lds = 2 * waves}</li>
 *   <li>{@code readReqs = ceil(bytes / 64)} (64-byte requests); {@code writeReqs = ceil(bytes / 4 / 64)}
 *       (a quarter of the bytes is written back)</li>
 *   <li>{@code insts = valu + salu + smem + lds}</li>
 * </ul>
 * Immutable.
 *
 * @param taskId     the task's id
 * @param funcId     the function (kernel) the task ran
 * @param coreIndex  the runtime core that ran it (chooses the SA, see {@link ActivityModel})
 * @param durationNs how long it ran, ns
 * @param flops      floating-point operations
 * @param bytes      bytes moved
 * @param waveSize   the architecture's wave size
 * @param cycles     derived
 * @param waves      derived
 * @param valu       derived
 * @param salu       derived
 * @param smem       derived
 * @param lds        derived
 * @param readReqs   derived
 * @param writeReqs  derived
 */
public record TaskActivity(long taskId, int funcId, int coreIndex, long durationNs, long flops, long bytes,
                           int waveSize, long cycles, long waves, long valu, long salu, long smem, long lds,
                           long readReqs, long writeReqs) {

    /**
     * @param arch       the architecture (clock, wave size)
     * @param taskId     the task's id
     * @param funcId     its function id
     * @param coreIndex  its core, at least 0
     * @param durationNs its duration, ns, at least 0
     * @param flops      its floating-point operations, at least 0
     * @param bytes      its bytes moved, at least 0
     * @return the activity with the derived quantities
     * @throws IllegalArgumentException when a count is negative
     */
    public static TaskActivity of(Architecture arch, long taskId, int funcId, int coreIndex, long durationNs,
                                  long flops, long bytes) {
        if (coreIndex < 0 || durationNs < 0 || flops < 0 || bytes < 0) {
            throw new IllegalArgumentException("negative task activity: core " + coreIndex + ", " + durationNs
                    + " ns, " + flops + " flops, " + bytes + " bytes");
        }
        int ws = arch.waveSize();
        long cycles = durationNs * arch.clockMhz() / 1000;
        long waves = 1 + flops / (64L * ws);
        long valu = (flops + ws - 1) / ws;
        long readReqs = (bytes + 63) / 64;
        long writeReqs = (bytes / 4 + 63) / 64;
        return new TaskActivity(taskId, funcId, coreIndex, durationNs, flops, bytes, ws, cycles, waves, valu,
                4 * waves, 2 * waves, 2 * waves, readReqs, writeReqs);
    }

    /** @return all instructions: {@code valu + salu + smem + lds} */
    public long insts() {
        return valu + salu + smem + lds;
    }
}
