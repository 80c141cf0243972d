package dev.dfx.pmu;

import java.util.List;

/**
 * A predefined event that needs no PMU name: Linux's generic hardware events ({@code PERF_TYPE_HARDWARE},
 * e.g. {@code cycles}) and software events ({@code PERF_TYPE_SOFTWARE}, e.g. {@code task-clock}), with
 * perf's aliases ({@code cs} for {@code context-switches}) and units ({@code msec} for the clocks, counted
 * in ns and scaled by 1e-6). Source: {@code tools/perf/util/parse-events.c} {@code event_symbols_hw/sw}.
 * Immutable.
 *
 * @param name    the canonical name, e.g. {@code context-switches}
 * @param aliases other accepted names, e.g. {@code cs}
 * @param pmu     the PMU that counts it: {@code hardware} or {@code software}
 * @param type    {@code perf_event_attr.type}
 * @param config  {@code perf_event_attr.config}
 * @param label   the bracketed kind {@code dfx list} prints, e.g. {@code Software event}
 * @param unit    the printed unit, or ""
 * @param scale   the factor from raw count to printed value
 */
public record SymbolicEvent(String name, List<String> aliases, String pmu, int type, long config, String label,
                            String unit, double scale) {
    /** Copies the aliases. */
    public SymbolicEvent {
        aliases = List.copyOf(aliases);
    }

    /** @return whether {@code s} is the name or one of the aliases */
    public boolean answersTo(String s) {
        return name.equals(s) || aliases.contains(s);
    }

    /** @return the name with its aliases as perf list prints it, e.g. {@code context-switches OR cs} */
    public String listName() {
        StringBuilder sb = new StringBuilder(name);
        for (String a : aliases) {
            sb.append(" OR ").append(a);
        }
        return sb.toString();
    }
}
