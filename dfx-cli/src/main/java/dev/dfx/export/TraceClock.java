package dev.dfx.export;

/**
 * The clock of a trace's timestamps: what it is, its reading at the trace's origin, and, where known, the wall clock
 * at that moment. Chrome JSON writes times relative to {@code originNs}; a Perfetto trace writes them as they are
 * and declares the clock in a ClockSnapshot.
 *
 * @param name            the clock's name, for the metadata (e.g. {@code System.nanoTime})
 * @param builtinClockId  Perfetto's BuiltinClock id of the clock ({@link PerfettoFields#BUILTIN_CLOCK_MONOTONIC},
 *                        {@link PerfettoFields#BUILTIN_CLOCK_PERF})
 * @param originNs        the clock's reading (ns) at the origin: no event is earlier
 * @param epochNsAtOrigin the wall clock (ns since 1970) at {@code originNs}, or -1 when unknown
 */
public record TraceClock(String name, int builtinClockId, long originNs, long epochNsAtOrigin) {
    /** A run's clock: {@code System.nanoTime}, which is CLOCK_MONOTONIC on Linux. */
    public static TraceClock nanoTime(long originNs, long epochNsAtOrigin) {
        return new TraceClock("System.nanoTime", PerfettoFields.BUILTIN_CLOCK_MONOTONIC, originNs, epochNsAtOrigin);
    }

    /** perf.data's clock (perf_clock unless recorded with {@code -k}), origin 0. */
    public static TraceClock perf() {
        return new TraceClock("perf_clock", PerfettoFields.BUILTIN_CLOCK_PERF, 0, -1);
    }
}
