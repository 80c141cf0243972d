package dev.dfx.audit;

/**
 * What to do about one pool. Immutable.
 *
 * @param action           {@link Action#KEEP}, {@link Action#GROW}, {@link Action#SHRINK} or
 *                         {@link Action#RATE_LIMITED} or {@link Action#REFILL_LIMITED}
 * @param option           the {@code dfx record} option that applies it, {@code --pool KIND=COUNTxRECORDS}; null
 *                         when the pool stays as it is
 * @param buffersPerLane   advised buffers per lane (the configured count when kept)
 * @param recordsPerBuffer records per buffer (advice keeps the configured buffer size)
 * @param memoryDeltaBytes bytes the advice costs (positive) or saves (negative), over every lane
 * @param reason           one line: why
 */
public record Advice(Action action, String option, int buffersPerLane, int recordsPerBuffer, long memoryDeltaBytes,
        String reason) {

    /** What the advice does. */
    public enum Action {
        /** Leave the pool as it is. */
        KEEP,
        /** More buffers per lane. */
        GROW,
        /** Fewer buffers per lane. */
        SHRINK,
        /** Losses set by the host's drain rate: no buffer count fixes them (the seed's dep_gen case). */
        RATE_LIMITED,
        /**
         * Losses while the lane never had all its buffers out (measured peak in flight below the pool): its free
         * queue, at most {@code min(SLOT_COUNT, buffers per lane)} buffers, ran dry before the host refilled it, so
         * no buffer count fixes them; more free-queue slots or a faster host do.
         */
        REFILL_LIMITED
    }
}
