package dev.dfx.pipeline;

/**
 * One buffer kind's watermark, size and host-side buffer flow. Immutable.
 *
 * <p>The flow fields are Little's law's λ and W for the kind ({@code L = λ·W}, the buffers the host holds on
 * average), measured on the host per buffer: a buffer's recycle latency W runs from the moment a drain shard takes
 * it off a ready queue to the moment the replenisher puts it back in a recycled lane (from which the drain shard
 * tops up free queues). A buffer drained but not yet back when the snapshot is taken (in a live snapshot, or one the
 * final collector pass kept) is counted in {@code buffersDrained} and not in {@code buffersRecycled}.
 *
 * @param kind             kind index
 * @param name             the pool's name from its {@link PoolSpec}
 * @param minFreeDepth     lowest free-queue depth seen on any lane of the kind, observed by the producer at
 *                         each pop (buffers left after taking one; 0 when a producer found its queue empty)
 * @param buffersAllocated buffers of this kind allocated so far (startup fill plus replenisher top-ups)
 * @param freeQueueSlots   slots of each lane's free queue ({@code SLOT_COUNT}); a lane's free queue holds at most
 *                         {@code min(freeQueueSlots, buffersPerLane)} buffers
 * @param buffersDrained   buffers of the kind drain shards took off ready queues (handed to the host)
 * @param buffersRecycled  of those, buffers back in a recycled lane: the samples of W
 * @param recycleTotalNs   W summed over {@code buffersRecycled} buffers, ns
 * @param recycleMaxNs     the longest W, ns (0 when none was measured)
 * @param collectNs        time collector calls spent on the kind's buffers, summed, ns (the host's service time)
 * @param peakInFlight     the most buffers one lane of the kind had out at once: taken from its free queue and not
 *                         yet back in a recycled lane (the buffer being filled included), sampled at each return, so
 *                         exact; 0 before the first return
 */
public record PoolStats(int kind, String name, long minFreeDepth, long buffersAllocated, int freeQueueSlots,
        long buffersDrained, long buffersRecycled, long recycleTotalNs, long recycleMaxNs, long collectNs,
        long peakInFlight) {

    /** @return the mean recycle latency W, ns; 0 when no buffer came back yet */
    public long recycleMeanNs() {
        return buffersRecycled == 0 ? 0 : recycleTotalNs / buffersRecycled;
    }

    /**
     * @param elapsedNs the time the buffers were drained over, ns (e.g. {@link PipelineStats#elapsedNs()})
     * @return λ: buffers handed to the host per second over {@code elapsedNs}; 0 when {@code elapsedNs <= 0}
     */
    public double buffersPerSecond(long elapsedNs) {
        return elapsedNs <= 0 ? 0 : buffersDrained * 1e9 / elapsedNs;
    }
}
