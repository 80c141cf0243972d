package dev.dfx.pmu.spec;

/**
 * The value of one term in an event spec or an events/ alias file: absent ({@code tsc}), a number
 * ({@code se=2}, {@code config1=0x200}), a string ({@code name=mytsc}, quoted {@code name='a,b'}) or a required
 * parameter ({@code core=?}, ABI {@code sysfs-bus-event_source-devices-events}). Immutable.
 */
public sealed interface TermValue {

    /** A bare term: perf 6.1 gives it the value 1. */
    record None() implements TermValue {
    }

    /** @param value the number, unsigned 64-bit */
    record Number(long value) implements TermValue {
    }

    /** @param text the string, quotes removed */
    record Text(String text) implements TermValue {
    }

    /** {@code term=?}: the user must give the value. */
    record Param() implements TermValue {
    }
}
