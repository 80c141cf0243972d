package dev.dfx.pmu.linux;

import dev.dfx.pmu.Counter;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.ResolvedEvent;
import java.util.List;

/**
 * A {@link Counter} over one event opened once per CPU (system-wide) or once for a task: reading sums the fds'
 * readings, as perf stat aggregates per-CPU counts ({@code AGGR_GLOBAL}). Reads must not overlap (one reader at a
 * time); enable/disable/close may come from any thread.
 */
public final class PerfEventCounter implements Counter {
    private final ResolvedEvent event;
    private final List<PerfEventFd> fds;

    /**
     * @param event the event
     * @param fds   its fds (at least one), owned by this counter from now on
     */
    public PerfEventCounter(ResolvedEvent event, List<PerfEventFd> fds) {
        this.event = event;
        this.fds = List.copyOf(fds);
    }

    /** @return the fds, one per CPU or one for the task */
    public List<PerfEventFd> fds() {
        return fds;
    }

    @Override
    public ResolvedEvent event() {
        return event;
    }

    @Override
    public CounterReading read() {
        CounterReading sum = CounterReading.ZERO;
        for (PerfEventFd fd : fds) {
            sum = sum.plus(fd.read());
        }
        return sum;
    }

    /** @return each fd's reading, in fd order (one per CPU system-wide) */
    public List<CounterReading> readEach() {
        return fds.stream().map(PerfEventFd::read).toList();
    }

    @Override
    public void enable() {
        fds.forEach(PerfEventFd::enable);
    }

    @Override
    public void disable() {
        fds.forEach(PerfEventFd::disable);
    }

    @Override
    public void close() {
        fds.forEach(PerfEventFd::close);
    }
}
