package dev.dfx.runtime.subsystem;

/**
 * How big one buffer kind's pool is per lane (docs/glossary.md, pool: count x records per buffer). Immutable.
 *
 * @param buffersPerLane   buffers each lane of the kind gets (COUNT of {@code --pool KIND=COUNTxRECORDS})
 * @param recordsPerBuffer records per buffer (RECORDS)
 */
public record PoolSize(int buffersPerLane, int recordsPerBuffer) {
    @Override
    public String toString() {
        return buffersPerLane + "x" + recordsPerBuffer;
    }
}
