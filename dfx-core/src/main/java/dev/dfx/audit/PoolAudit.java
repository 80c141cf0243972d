package dev.dfx.audit;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The capacity audit of one pool ({@link CapacityAudit#audit(PoolObservation)}). Quantities are per lane where the
 * pool's lanes differ only in load (the busiest lane is taken). Immutable.
 *
 * @param pool              what the run saw
 * @param freeQueueCapacity buffers a lane's free queue can hold: {@code min(SLOT_COUNT, buffers per lane)}
 * @param peakInFlight      the most buffers a lane had out at once (the seed's "peak borrow"): the flow's measured
 *                          peak (taken from the free queue, not yet back in a recycled lane), and at least
 *                          {@code freeQueueCapacity - min_free_depth} (what the free-queue watermark shows; all
 *                          there is in a run.json without flow)
 * @param freeMargin        {@code min_free_depth / freeQueueCapacity}
 * @param readyMargin       {@code 1 - max_ready_depth / (ready-queue capacity - 1)} (one entry is sacrificed)
 * @param buffersPerSecond  λ of the pool (all lanes), buffers handed to the host per second; null when unknown
 * @param recycleMeanNs     W, mean host recycle latency, ns; null when unknown (a run.json without flow)
 * @param recycleMaxNs      the longest recycle latency, ns; null when unknown
 * @param littleL           {@code L = λ·W} for the busiest lane (λ times its share of the records): buffers the
 *                          host held for it on average; null when unknown
 * @param need              buffers the busiest lane needed: {@code max(peakInFlight, L + 1)} (the +1 is the buffer
 *                          it was filling); for a short pool demand-corrected (see {@link CapacityAudit}) and at
 *                          least one more than the configured count
 * @param headroom          {@code buffers per lane / need}
 * @param byDimension       each dimension's verdict
 * @param verdict           the weakest of them
 * @param decidedBy         the dimension that gave it (the first in {@link Dimension} order among equals)
 * @param rateLimit         set when the pool's loss is rate-limited, else null
 * @param advice            what to do
 */
public record PoolAudit(PoolObservation pool, int freeQueueCapacity, long peakInFlight, double freeMargin,
        double readyMargin, Double buffersPerSecond, Long recycleMeanNs, Long recycleMaxNs, Double littleL,
        double need, double headroom, Map<Dimension, Verdict> byDimension, Verdict verdict, Dimension decidedBy,
        RateLimit rateLimit, Advice advice) {

    /** Copies the map (in {@link Dimension} order), so the record stays immutable. */
    public PoolAudit {
        byDimension = Collections.unmodifiableMap(new EnumMap<>(byDimension));
    }
}
