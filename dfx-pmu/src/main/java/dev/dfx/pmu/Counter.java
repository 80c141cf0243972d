package dev.dfx.pmu;

/**
 * An opened event that can be read: a Linux {@code perf_event_open} file descriptor (or one per CPU), or an
 * event of a simulated PMU. Created disabled or enabled as its opener documents.
 *
 * <p>Thread-safety is the implementation's: Linux counters may be read from any thread; simulated counters
 * synchronize on their event context.
 */
public interface Counter extends AutoCloseable {

    /** @return the event this counts */
    ResolvedEvent event();

    /**
     * @return the cumulative count and times since the counter was opened
     * @throws dev.dfx.error.BadInputException when the counter cannot be read (e.g. a short read)
     */
    CounterReading read();

    /** Starts counting (PERF_EVENT_IOC_ENABLE). */
    void enable();

    /** Stops counting (PERF_EVENT_IOC_DISABLE); the count is kept. */
    void disable();

    /** Releases the counter; reading afterwards is an error. Idempotent. */
    @Override
    void close();
}
