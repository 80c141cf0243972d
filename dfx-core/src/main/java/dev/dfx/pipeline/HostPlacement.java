package dev.dfx.pipeline;

/**
 * Where the host parts of one pipeline run: the {@link HostLoop} of each drain shard and of the replenisher, and
 * the collector pool, or, for a pipeline whose host a test plays step by step, no threads at all. The parts ring the
 * doorbells given here after each hand-off. Immutable.
 */
final class HostPlacement {
    private final HostLoop[] shardLoops;
    private final HostLoop replenisherLoop;
    private final Doorbell[] shardBells;
    private final Doorbell replenisherBell;
    private final Doorbell collectorBell;

    private HostPlacement(HostLoop[] shardLoops, HostLoop replenisherLoop, Doorbell[] shardBells,
            Doorbell replenisherBell, Doorbell collectorBell) {
        this.shardLoops = shardLoops;
        this.replenisherLoop = replenisherLoop;
        this.shardBells = shardBells;
        this.replenisherBell = replenisherBell;
        this.collectorBell = collectorBell;
    }

    /** @return shard {@code s} on {@code shardLoops[s]}, the replenisher on {@code replenisherLoop}, collectors on the pool */
    static HostPlacement on(HostLoop[] shardLoops, HostLoop replenisherLoop, CollectorPool pool) {
        Doorbell[] bells = new Doorbell[shardLoops.length];
        for (int s = 0; s < bells.length; s++) {
            bells[s] = shardLoops[s].idleState();
        }
        return new HostPlacement(shardLoops.clone(), replenisherLoop, bells, replenisherLoop.idleState(), pool);
    }

    /** @return a placement without threads for {@code shards} drain shards: doorbells that nobody sleeps on */
    static HostPlacement unattended(int shards) {
        Doorbell[] bells = new Doorbell[shards];
        for (int s = 0; s < shards; s++) {
            bells[s] = new HostIdle();
        }
        return new HostPlacement(null, null, bells, new HostIdle(), new HostIdle());
    }

    HostLoop shardLoop(int shard) {
        return shardLoops[shard];
    }

    HostLoop replenisherLoop() {
        return replenisherLoop;
    }

    Doorbell shardBell(int shard) {
        return shardBells[shard];
    }

    Doorbell[] shardBells() {
        return shardBells.clone();
    }

    Doorbell replenisherBell() {
        return replenisherBell;
    }

    Doorbell collectorBell() {
        return collectorBell;
    }
}
