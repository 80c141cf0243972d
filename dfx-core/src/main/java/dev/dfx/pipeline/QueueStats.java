package dev.dfx.pipeline;

import java.util.List;

/**
 * One producer's ready queue. Immutable.
 *
 * @param producer          producer index
 * @param capacity          entries in the ring ({@code readyQueueSize}); one is sacrificed, so at most
 *                          {@code capacity - 1} buffers wait at once
 * @param maxReadyDepth     highest backlog seen, observed by the producer right after each publish
 * @param readyDepthSamples the queue's backlog over time as its drain shard saw it (at the start of each sweep that
 *                          read the producer's tail; entries, oldest first), at most
 *                          {@link PipelineConfig#maxDepthSamples()} intervals; the producer's own high point is
 *                          {@code maxReadyDepth}, which the series reaches when the shard looked before draining it
 */
public record QueueStats(int producer, int capacity, long maxReadyDepth, List<DepthSample> readyDepthSamples) {
    /** Copies the series. */
    public QueueStats {
        readyDepthSamples = List.copyOf(readyDepthSamples);
    }
}
