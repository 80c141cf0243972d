package dev.dfx.pipeline;

/**
 * Publishes host acknowledgements of payload arenas (docs/pipeline.md, host rule 5): the {@code args} subsystem
 * calls {@link PayloadArena#acknowledge(long)} for each lane whose payloads it has persisted.
 *
 * <p>Runs on the replenisher thread once per replenisher tick (every few tens of µs when idle, more often when
 * busy). It must be cheap and must not block: the replenisher is what keeps every lane's buffers flowing.
 * A hook that throws is reported in {@link PipelineStats#errors()} and called again on the next tick.
 */
@FunctionalInterface
public interface ArenaAckHook {
    /** Called once per replenisher tick, on the replenisher thread. */
    void onReplenisherTick();
}
