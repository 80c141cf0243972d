package dev.dfx.audit;

/**
 * Why a lossy pool is rate-limited rather than short of buffers: its producers asked for bytes faster than the host
 * drains them, so any number of buffers fills up and then loses {@code (demand - drain) x time - buffers x size}
 * (the seed's dynamic form {@code drop ≈ (λ−µ)·T − N·S}). Immutable.
 *
 * @param demandBytesPerSecond records attempted (collected and dropped) x record size, per second the producers
 *                             were not stalled (the run's time less each lane's stall time under BLOCK)
 * @param drainBytesPerSecond  records delivered x record size, per second of the run (wall clock: collector call
 *                             time and any wait for a CPU)
 */
public record RateLimit(double demandBytesPerSecond, double drainBytesPerSecond) {
}
