package dev.dfx.pmu.stat;

import dev.dfx.pmu.Counter;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.ToolEvent;

/**
 * A tool event read from the run's {@link ToolTimes}: value, enabled and running time are all the value, as perf
 * 6.1 sets them ({@code read_single_counter} in builtin-stat.c), so a zero value prints {@code <not counted>}.
 * Enable and disable do nothing (the times are the run's). Thread-safe.
 */
final class ToolCounter implements Counter {
    private final ResolvedEvent event;
    private final ToolEvent tool;
    private final ToolTimes times;

    ToolCounter(ResolvedEvent event, ToolTimes times) {
        this.event = event;
        this.tool = ToolEvent.of(event);
        this.times = times;
    }

    @Override
    public ResolvedEvent event() {
        return event;
    }

    @Override
    public CounterReading read() {
        long v = times.value(tool);
        return new CounterReading(v, v, v);
    }

    @Override
    public void enable() {
        // the run's times: nothing to start
    }

    @Override
    public void disable() {
        // nothing to stop
    }

    @Override
    public void close() {
        // nothing held
    }
}
