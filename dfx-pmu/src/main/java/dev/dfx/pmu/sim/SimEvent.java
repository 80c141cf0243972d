package dev.dfx.pmu.sim;

import dev.dfx.pmu.ResolvedEvent;

/**
 * One event of a simulated PMU, the counterpart of the kernel's {@code struct perf_event}: its state, the
 * counter slot it holds while scheduled, the PMU's private data, the accumulated count, and the enabled and
 * running times. The {@link EventContext} owns the state and times; the {@link SimPmu} owns the slot, the
 * private data, {@link #prevRaw} and the count.
 *
 * <p>Not thread-safe: every access happens under the owning context's lock.
 */
public final class SimEvent {
    /** Scheduling state, as the kernel's {@code PERF_EVENT_STATE_*}. */
    public enum State {
        /** Disabled: neither enabled nor running time accrues. */
        OFF,
        /** Enabled but not on a counter slot (multiplexed out): enabled time accrues. */
        INACTIVE,
        /** On a counter slot: enabled and running time accrue, the count advances. */
        ACTIVE
    }

    private final ResolvedEvent event;
    private final SimPmu pmu;
    private final SimEvent leader;
    State state = State.OFF;
    long enabledNs;
    long runningNs;
    private int slot = -1;
    private Object hw;
    private long prevRaw;
    private boolean counting;
    private long count;

    SimEvent(ResolvedEvent event, SimPmu pmu, SimEvent leader) {
        this.event = event;
        this.pmu = pmu;
        this.leader = leader == null ? this : leader;
    }

    /** @return the resolved event */
    public ResolvedEvent event() {
        return event;
    }

    /** @return the PMU that counts it */
    public SimPmu pmu() {
        return pmu;
    }

    /** @return the group leader (itself when it leads) */
    public SimEvent leader() {
        return leader;
    }

    /** @return the scheduling state */
    public State state() {
        return state;
    }

    /** @return the counter slot while scheduled, else -1 */
    public int slot() {
        return slot;
    }

    /** @param slot the slot the PMU assigned, or -1 when released */
    public void slot(int slot) {
        this.slot = slot;
    }

    /** @return the PMU's private data set at event init (e.g. the counter and the selected instances) */
    public Object hw() {
        return hw;
    }

    /** @param hw the PMU's private data */
    public void hw(Object hw) {
        this.hw = hw;
    }

    /** @return the raw hardware value at the last start or read (the kernel's {@code hw.prev_count}) */
    public long prevRaw() {
        return prevRaw;
    }

    /** @param raw the raw hardware value now */
    public void prevRaw(long raw) {
        this.prevRaw = raw;
    }

    /** @return whether the hardware counter runs for this event (between start and stop) */
    public boolean counting() {
        return counting;
    }

    /** @param on whether the hardware counter now runs for this event */
    public void counting(boolean on) {
        this.counting = on;
    }

    /** @return the accumulated count */
    public long count() {
        return count;
    }

    /** @param delta counts to add */
    public void addCount(long delta) {
        count += delta;
    }
}
