package dev.dfx.pmu.accel;

/**
 * A hardware block of the simulated accelerator with its own counter slots (perf-dkms
 * {@code hardware_ip_block_t}): events of one block compete for that block's slots.
 */
public enum Block {
    /** Sequencer: waves and instructions, per WGP (one counter per SE). */
    SQ,
    /** Texture addresser, per WGP. */
    TA,
    /** L2 cache channel, per SA. */
    GL2C,
    /** Graphics register bus manager: device-wide. */
    GRBM
}
