package dev.dfx.audit;

import dev.dfx.pipeline.BackpressurePolicy;

/**
 * What one run saw of one pool (all buffers of one kind): its size, its watermarks, its losses and, when the run
 * measured it, its host-side buffer flow. The input of {@link CapacityAudit}; built from a run's manifest (run.json:
 * {@code config.pools[]}, {@code subsystems[].pools[]}, {@code lanes[]}, {@code queues[]}) by dfx-runtime. Counts
 * are summed over the pool's lanes unless named per lane. Immutable.
 *
 * @param subsystem          subsystem name, e.g. {@code swimlane}
 * @param kind               qualified kind, {@code subsystem.kind}, as {@code --pool} takes it, e.g.
 *                           {@code swimlane.core-task}
 * @param policy             the subsystem's backpressure policy
 * @param lanes              lanes of the kind (each owns {@code buffersPerLane} buffers)
 * @param buffersPerLane     configured buffers per lane (the pool per lane)
 * @param recordsPerBuffer   records per buffer
 * @param recordSize         bytes per record
 * @param freeQueueSlots     slots of a lane's free queue ({@code SLOT_COUNT}); the free queue holds at most
 *                           {@code min(freeQueueSlots, buffersPerLane)} buffers
 * @param minFreeDepth       lowest free-queue depth seen on any lane of the kind, right after a take
 * @param readyQueueCapacity entries of the ready queues the kind's lanes publish to (the smallest, one entry
 *                           sacrificed: at most {@code readyQueueCapacity - 1} wait)
 * @param maxReadyDepth      highest backlog seen on those ready queues (shared with the producer's other kinds)
 * @param total              records attempted
 * @param dropped            records dropped, every cause
 * @param stalls             gate waits longer than the stall threshold
 * @param stallNs            their summed duration, ns
 * @param busiestLaneTotal   records attempted on the busiest lane of the kind
 * @param flow               the host-side flow (λ, W), or null when the run did not measure it (older run.json)
 */
public record PoolObservation(String subsystem, String kind, BackpressurePolicy policy, int lanes,
        int buffersPerLane, int recordsPerBuffer, int recordSize, int freeQueueSlots, long minFreeDepth,
        int readyQueueCapacity, long maxReadyDepth, long total, long dropped, long stalls, long stallNs,
        long busiestLaneTotal, Flow flow) {

    /**
     * Checks the sizes an audit divides by.
     *
     * @throws IllegalArgumentException when a size is below 1 (the ready queue below 2), or a count is negative
     */
    public PoolObservation {
        if (lanes < 1 || buffersPerLane < 1 || recordsPerBuffer < 1 || recordSize < 1 || freeQueueSlots < 1
                || readyQueueCapacity < 2) {
            throw new IllegalArgumentException(kind + ": lanes, buffers per lane, records per buffer, record size"
                    + " and free-queue slots must be >= 1 and the ready queue >= 2");
        }
        if (minFreeDepth < 0 || maxReadyDepth < 0 || total < 0 || dropped < 0 || stalls < 0 || stallNs < 0
                || busiestLaneTotal < 0) {
            throw new IllegalArgumentException(kind + ": counts must be >= 0");
        }
    }

    /**
     * Little's law's λ and W for one pool, measured on the host per buffer.
     *
     * @param buffersDrained   buffers drain shards took off ready queues
     * @param buffersPerSecond λ: buffers handed to the host per second over the recording (the pool, all lanes)
     * @param recycleMeanNs    W: mean host recycle latency of a buffer (ready queue to recycled lane), ns
     * @param recycleMaxNs     the longest recycle latency, ns
     * @param collectNs        collector call time spent on the pool's buffers, summed, ns
     * @param peakInFlight     the most buffers one lane had out at once (taken from its free queue, not yet back in
     *                         a recycled lane), measured at each return
     */
    public record Flow(long buffersDrained, double buffersPerSecond, long recycleMeanNs, long recycleMaxNs,
            long collectNs, long peakInFlight) {
    }
}
