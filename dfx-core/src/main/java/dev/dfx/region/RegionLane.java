package dev.dfx.region;

import dev.dfx.pipeline.LaneStats;

/**
 * One lane of a region: who writes it and how it stands. Immutable.
 *
 * @param lane   lane index
 * @param pool   its pool's name
 * @param pid    the owning process, 0 when unused (as the producer wrote it: a number, not trusted)
 * @param tid    the owning thread (Linux tid), 0 when unused
 * @param name   the owning thread's name as its producer wrote it (e.g. from {@code pthread_getname_np}); empty when
 *               unused or unnamed (a producer's bytes: shown, not trusted)
 * @param state  where the lane stands
 * @param reason why it is {@link LaneState#FAILED} or {@link LaneState#PRODUCER_EXITED}, else empty
 * @param stats  the pipeline's counts of the lane (total, collected, dropped by cause, stalls)
 */
public record RegionLane(int lane, String pool, long pid, long tid, String name, LaneState state, String reason,
        LaneStats stats) {
}
