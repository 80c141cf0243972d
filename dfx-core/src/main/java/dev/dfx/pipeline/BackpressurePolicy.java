package dev.dfx.pipeline;

/**
 * What a producer does at a gate (ready queue full, free queue empty) — docs/pipeline.md, producer rule 7.
 * Chosen per pipeline (that is, per subsystem); the command line's {@code --backpressure block|drop}.
 */
public enum BackpressurePolicy {
    /** Wait at the gate, up to one backstop per wait, and lose nothing (the default). */
    BLOCK,
    /** Never wait: a record or buffer that finds no room is dropped at once and counted by cause. */
    DROP
}
