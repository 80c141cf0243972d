package dev.dfx.pipeline;

/**
 * One buffer kind's watermark and size. Immutable.
 *
 * @param kind             kind index
 * @param name             the pool's name from its {@link PoolSpec}
 * @param minFreeDepth     lowest free-queue depth seen on any lane of the kind, observed by the producer at
 *                         each pop (buffers left after taking one; 0 when a producer found its queue empty)
 * @param buffersAllocated buffers of this kind allocated so far (startup fill plus replenisher top-ups)
 */
public record PoolStats(int kind, String name, long minFreeDepth, long buffersAllocated) {
}
