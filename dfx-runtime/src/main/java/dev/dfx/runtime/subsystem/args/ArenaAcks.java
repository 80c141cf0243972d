package dev.dfx.runtime.subsystem.args;

import dev.dfx.pipeline.ArenaAckHook;
import dev.dfx.pipeline.PayloadArena;
import dev.dfx.pipeline.Pipeline;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The host acknowledgements of the args payload arenas (the reference's {@code publish_arena_acks}): the collector
 * counts, per lane, the payloads it has copied into {@code args.bin} ({@link #persisted}); on each replenisher tick
 * this hook acknowledges that count to the lane's arena, so a producer waiting at the arena's wrap may reuse the
 * bytes. Counts are per lane (no lane waits for another's payloads).
 *
 * <p>Thread-safety: {@link #persisted} on the lane's collector thread, {@link #onReplenisherTick} on the
 * replenisher; the count is an atomic, released after the payload's bytes were copied out of the arena.
 */
final class ArenaAcks implements ArenaAckHook {
    private volatile Pipeline pipeline;
    private volatile int[] lanes = new int[0];
    private volatile AtomicLongArray persisted = new AtomicLongArray(0);

    /** Binds the hook to the running pipeline and the lanes that have arenas. */
    void attach(Pipeline p, int[] arenaLanes) {
        int max = 0;
        for (int l : arenaLanes) {
            max = Math.max(max, l + 1);
        }
        persisted = new AtomicLongArray(max);
        lanes = arenaLanes.clone();
        pipeline = p;
    }

    /** One more payload of pipeline lane {@code lane} is out of its arena (collector thread). */
    void persisted(int lane) {
        persisted.incrementAndGet(lane);
    }

    @Override
    public void onReplenisherTick() {
        Pipeline p = pipeline;
        if (p == null) {
            return;
        }
        for (int lane : lanes) {
            PayloadArena a = p.payloadArena(lane);
            // never past what the producer published (a recovered un-flushed buffer was never published)
            long done = Math.min(persisted.get(lane), a.publishedPayloadCount());
            if (done > a.completedPayloadCount()) {
                a.acknowledge(done);
            }
        }
    }
}
