package dev.dfx.pmu.sim;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.ResolvedEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The set of events counted together on simulated PMUs, modelled on the kernel's {@code perf_event_context}
 * ({@code kernel/events/core.c}): groups are scheduled in list order, all members of a group or none
 * ({@code group_sched_in}); once a group fails to get a slot of some pool (a block of a PMU), later groups
 * needing that pool are not tried in that round (the kernel's {@code can_add_hw}, per pool here because one
 * accelerator PMU has several blocks with their own slots); on each {@link #tick()} (the multiplexing timer,
 * {@code perf_event_mux_interval_ms}), when some enabled group is not scheduled, every event is scheduled out,
 * the first scheduled group using each oversubscribed pool moves to the end of the list ({@code rotate_ctx}), and
 * the groups are scheduled in again. A group that could never fit (more members in a pool than it has slots) is
 * refused at open, as the kernel's {@code validate_group} does. Enabled time accrues while an event is enabled, running time while it
 * holds a slot; readers scale the count by enabled/running ({@link CounterReading#scaledValue()}).
 *
 * <p>Time comes from the clock given (ns, monotonic), so tests can drive it by hand. All methods are
 * synchronized: the context may be read, ticked and changed from different threads.
 */
public final class EventContext {
    private final LongSupplier clockNs;
    /** Group leaders in rotation order. */
    private final List<SimEvent> leaders = new ArrayList<>();
    private final Map<SimEvent, List<SimEvent>> groups = new LinkedHashMap<>();
    /** Leaders scheduled before the last schedule-out: the rotation moves the first of them. */
    private final Set<SimEvent> wasScheduledLast = new HashSet<>();
    private long lastUpdate;

    /** @param clockNs a monotonic clock in ns, e.g. {@code System::nanoTime} */
    public EventContext(LongSupplier clockNs) {
        this.clockNs = clockNs;
        this.lastUpdate = clockNs.getAsLong();
    }

    /**
     * Creates and validates an event ({@code event_init}); it starts disabled.
     *
     * @param event  the resolved event
     * @param pmu    the PMU that counts it
     * @param leader the group leader, or null to lead a new group
     * @return the event
     * @throws BadInputException when the PMU rejects the event, or the leader belongs to another PMU
     */
    public synchronized SimEvent open(ResolvedEvent event, SimPmu pmu, SimEvent leader) {
        if (leader != null && leader.pmu() != pmu) {
            throw new BadInputException("event '" + event.name() + "' (PMU " + pmu.name() + ") cannot join the group of '"
                    + leader.event().name() + "' (PMU " + leader.pmu().name() + "): a group counts on one PMU");
        }
        SimEvent e = new SimEvent(event, pmu, leader);
        pmu.eventInit(e);
        List<SimEvent> members = new ArrayList<>(leader == null ? List.of() : groups.get(leader.leader()));
        members.add(e);
        Object pool = pmu.slotPool(e);
        long need = members.stream().filter(m -> m.pmu().slotPool(m).equals(pool)).count();
        if (need > pmu.poolCapacity(pool)) {
            throw new BadInputException("group of '" + members.getFirst().event().name() + "' needs " + need + " slots of "
                    + pmu.name() + " block " + pool + ", which has " + pmu.poolCapacity(pool) + "; split the group");
        }
        if (leader == null) {
            leaders.add(e);
            groups.put(e, new ArrayList<>(List.of(e)));
        } else {
            reschedule(() -> groups.get(leader.leader()).add(e));
        }
        return e;
    }

    /** Enables an event (it competes for a slot from now on). */
    public synchronized void enable(SimEvent e) {
        enable(List.of(e));
    }

    /** Enables events at one instant, so that their enabled times agree (as one ioctl on a group does). */
    public synchronized void enable(List<SimEvent> events) {
        reschedule(() -> {
            for (SimEvent e : events) {
                if (e.state == SimEvent.State.OFF) {
                    e.state = SimEvent.State.INACTIVE;
                }
            }
        });
    }

    /** Disables an event; its count and times are kept. */
    public synchronized void disable(SimEvent e) {
        disable(List.of(e));
    }

    /** Disables events at one instant. */
    public synchronized void disable(List<SimEvent> events) {
        reschedule(() -> events.forEach(e -> e.state = SimEvent.State.OFF));
    }

    /** Removes an event (disabling it first); a removed leader takes its group with it. */
    public synchronized void close(SimEvent e) {
        reschedule(() -> {
            List<SimEvent> group = groups.remove(e);
            if (group != null) {
                leaders.remove(e);
                group.forEach(m -> m.state = SimEvent.State.OFF);
            } else {
                List<SimEvent> owner = groups.get(e.leader());
                if (owner != null) {
                    owner.remove(e);
                }
                e.state = SimEvent.State.OFF;
            }
        });
    }

    /**
     * The multiplexing tick: brings times up to date and, when some enabled group is not scheduled, rotates and
     * reschedules.
     */
    public synchronized void tick() {
        updateTimes();
        Set<Object> oversubscribed = new HashSet<>();
        for (SimEvent l : leaders) {
            if (l.state == SimEvent.State.INACTIVE) {
                oversubscribed.addAll(pools(l));
            }
        }
        if (oversubscribed.isEmpty()) {
            return;
        }
        scheduleOut();
        Set<SimEvent> moved = new HashSet<>();
        for (Object pool : oversubscribed) {
            for (SimEvent l : leaders) {
                if (wasScheduledLast.contains(l) && !moved.contains(l) && pools(l).contains(pool)) {
                    moved.add(l);
                    leaders.remove(l);
                    leaders.add(l);
                    break;
                }
            }
        }
        scheduleIn();
    }

    /**
     * Reads an event: folds the hardware value into its count when it is scheduled, and brings its times up to
     * date.
     *
     * @return the cumulative count, enabled ns and running ns
     */
    public synchronized CounterReading read(SimEvent e) {
        updateTimes();
        if (e.state == SimEvent.State.ACTIVE) {
            e.pmu().read(e);
        }
        return new CounterReading(e.count(), e.enabledNs, e.runningNs);
    }

    /** @return the group leaders in their current rotation order (for tests and diagnostics) */
    public synchronized List<SimEvent> leaders() {
        return List.copyOf(leaders);
    }

    private void reschedule(Runnable change) {
        updateTimes();
        scheduleOut();
        change.run();
        scheduleIn();
    }

    private void scheduleOut() {
        wasScheduledLast.clear();
        for (SimEvent l : leaders) {
            for (SimEvent m : groups.get(l)) {
                if (m.state == SimEvent.State.ACTIVE) {
                    m.pmu().del(m);
                    m.state = SimEvent.State.INACTIVE;
                    wasScheduledLast.add(l);
                }
            }
        }
    }

    /** @return the slot pools a group's enabled members use */
    private Set<Object> pools(SimEvent leader) {
        Set<Object> out = new HashSet<>();
        for (SimEvent m : groups.get(leader)) {
            if (m.state != SimEvent.State.OFF) {
                out.add(m.pmu().slotPool(m));
            }
        }
        return out;
    }

    private void scheduleIn() {
        Set<Object> full = new HashSet<>();
        for (SimEvent l : leaders) {
            if (l.state == SimEvent.State.OFF || pools(l).stream().anyMatch(full::contains)) {
                continue;
            }
            List<SimEvent> members = new ArrayList<>();
            for (SimEvent m : groups.get(l)) {
                if (m.state != SimEvent.State.OFF) {
                    members.add(m);
                }
            }
            List<SimEvent> added = new ArrayList<>();
            for (SimEvent m : members) {
                if (!m.pmu().add(m, false)) {
                    full.add(m.pmu().slotPool(m));
                    break;
                }
                added.add(m);
            }
            if (added.size() < members.size()) {
                added.forEach(m -> m.pmu().del(m)); // all or nothing, never started: nothing counted
                continue;
            }
            for (SimEvent m : members) {
                m.pmu().start(m);
                m.state = SimEvent.State.ACTIVE;
            }
        }
    }

    private void updateTimes() {
        long now = clockNs.getAsLong();
        long delta = now - lastUpdate;
        lastUpdate = now;
        if (delta <= 0) {
            return;
        }
        for (List<SimEvent> group : groups.values()) {
            for (SimEvent m : group) {
                if (m.state != SimEvent.State.OFF) {
                    m.enabledNs += delta;
                    if (m.state == SimEvent.State.ACTIVE) {
                        m.runningNs += delta;
                    }
                }
            }
        }
    }
}
