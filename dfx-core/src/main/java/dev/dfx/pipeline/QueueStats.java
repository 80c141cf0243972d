package dev.dfx.pipeline;

/**
 * One producer's ready queue. Immutable.
 *
 * @param producer      producer index
 * @param capacity      entries in the ring ({@code readyQueueSize}); one is sacrificed, so at most
 *                      {@code capacity - 1} buffers wait at once
 * @param maxReadyDepth highest backlog seen, observed by the producer right after each publish
 */
public record QueueStats(int producer, int capacity, long maxReadyDepth) {
}
