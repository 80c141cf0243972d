package dev.dfx.pmu.stat;

import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.linux.SymbolicEvents;

/**
 * One line of {@code dfx stat} output: an event, whether it could be opened, and its reading (cumulative, or one
 * interval's difference). Immutable.
 *
 * @param event     the event
 * @param supported whether it was opened ({@code <not supported>} otherwise)
 * @param reading   its count and times ({@link CounterReading#ZERO} when not supported)
 */
public record StatRow(ResolvedEvent event, boolean supported, CounterReading reading) {

    /** @return whether perf would print a number: supported, enabled and running ({@code <not counted>} otherwise) */
    public boolean counted() {
        return supported && reading.counted();
    }

    /** @return the printed value: the scaled count times the event's scale (e.g. ns to msec) */
    public double value() {
        return reading.scaledValue() * event.scale();
    }

    /** @return whether the event is a software clock (task-clock, cpu-clock), whose count is ns */
    public boolean isClock() {
        return SymbolicEvents.isClock(event.attr().type(), event.attr().config());
    }

    /** @return whether it is the generic hardware event with that config ({@code PERF_TYPE_HARDWARE}) */
    public boolean isHardware(long config) {
        return event.attr().type() == PerfType.HARDWARE && event.attr().config() == config;
    }
}
