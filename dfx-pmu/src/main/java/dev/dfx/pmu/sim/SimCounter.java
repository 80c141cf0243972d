package dev.dfx.pmu.sim;

import dev.dfx.pmu.Counter;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.ResolvedEvent;

/**
 * A {@link Counter} over an event of a simulated PMU in an {@link EventContext}. Thread-safe (the context
 * synchronizes).
 */
public final class SimCounter implements Counter {
    private final EventContext context;
    private final SimEvent event;
    private boolean closed;

    /**
     * @param context the context the event lives in
     * @param event   the event
     */
    public SimCounter(EventContext context, SimEvent event) {
        this.context = context;
        this.event = event;
    }

    /** @return the simulated event */
    public SimEvent simEvent() {
        return event;
    }

    @Override
    public ResolvedEvent event() {
        return event.event();
    }

    @Override
    public CounterReading read() {
        return context.read(event);
    }

    @Override
    public void enable() {
        context.enable(event);
    }

    @Override
    public void disable() {
        context.disable(event);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            context.close(event);
        }
    }
}
