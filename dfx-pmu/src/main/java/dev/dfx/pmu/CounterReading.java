package dev.dfx.pmu;

/**
 * One read of a counter in perf's {@code read_format} shape with {@code TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING}:
 * the raw count and the nanoseconds the event was enabled and actually running on a counter. When they differ
 * the event was multiplexed and the count is scaled up ({@code perf_counts_values__scale},
 * {@code tools/lib/perf/evsel.c}). Immutable.
 *
 * @param value   the raw count, unsigned
 * @param enabled ns the event was enabled
 * @param running ns the event was scheduled on a counter slot
 */
public record CounterReading(long value, long enabled, long running) {

    /** A reading of nothing (never enabled). */
    public static final CounterReading ZERO = new CounterReading(0, 0, 0);

    /** @return whether the event ran at all ({@code enabled != 0 && running != 0}); perf prints {@code <not counted>} otherwise */
    public boolean counted() {
        return enabled != 0 && running != 0;
    }

    /** @return whether the event was multiplexed ({@code running < enabled}) */
    public boolean multiplexed() {
        return running != enabled;
    }

    /**
     * perf's scaled estimate: {@code (u64)((double) value * enabled / running)} when {@code running < enabled},
     * the raw value when the event ran all the time, 0 when it never ran.
     *
     * @return the estimate
     */
    public long scaledValue() {
        if (running == 0) {
            return 0;
        }
        if (Long.compareUnsigned(running, enabled) < 0) {
            return (long) ((double) value * enabled / running);
        }
        return value;
    }

    /** @return the running share in percent, {@code 100.0 * running / enabled} (100 when never enabled) */
    public double runningPercent() {
        return enabled == 0 ? 100.0 : 100.0 * running / enabled;
    }

    /** @return perf's CSV percent: integer {@code 100 * running / enabled} when they differ, else 100 */
    public double runningPercentCsv() {
        return running == enabled ? 100.0 : (double) (100 * running / enabled);
    }

    /**
     * @param earlier a reading of the same counter taken before
     * @return the difference, field by field (an interval's reading)
     */
    public CounterReading minus(CounterReading earlier) {
        return new CounterReading(value - earlier.value, enabled - earlier.enabled, running - earlier.running);
    }

    /** @return the field-by-field sum (per-CPU readings of one event add up) */
    public CounterReading plus(CounterReading other) {
        return new CounterReading(value + other.value, enabled + other.enabled, running + other.running);
    }
}
