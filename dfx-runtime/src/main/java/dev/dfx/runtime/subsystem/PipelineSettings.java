package dev.dfx.runtime.subsystem;

import dev.dfx.pipeline.BackpressurePolicy;
import java.time.Duration;

/**
 * What every subsystem's pipeline shares: sizes of the pools and the backpressure knobs (docs/pipeline.md).
 * Immutable.
 *
 * @param pools          pool sizes per buffer kind
 * @param policy         BLOCK (wait at the gates, lose nothing) or DROP (never wait, count the loss)
 * @param backstop       budget of one gate wait
 * @param stallThreshold a gate wait longer than this is a stall
 */
public record PipelineSettings(PoolSizes pools, BackpressurePolicy policy, Duration backstop, Duration stallThreshold) {
}
