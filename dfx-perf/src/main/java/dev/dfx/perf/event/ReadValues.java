package dev.dfx.perf.event;

/**
 * The {@code read_format} values of a PERF_SAMPLE_READ sample ({@code struct sample_read}): one value, or a
 * group of values with their ids. Arrays have {@link #nr()} entries; {@code lost} is all zeros unless
 * PERF_FORMAT_LOST is set. Immutable (arrays are not exposed for writing by convention; do not modify).
 *
 * @param group       whether PERF_FORMAT_GROUP is set
 * @param timeEnabled TOTAL_TIME_ENABLED in ns (0 if absent)
 * @param timeRunning TOTAL_TIME_RUNNING in ns (0 if absent)
 * @param ids         the sample id of each value
 * @param values      counter values
 * @param lost        lost counts
 */
public record ReadValues(boolean group, long timeEnabled, long timeRunning, long[] ids, long[] values,
                         long[] lost) {
    /** @return the number of values (1 unless grouped) */
    public int nr() {
        return values.length;
    }
}
