package dev.dfx.pmu.linux;

import dev.dfx.pmu.SymbolicEvent;
import dev.dfx.pmu.attr.PerfType;
import java.util.ArrayList;
import java.util.List;

/**
 * Linux's generic events by name, as perf 6.1 knows them ({@code event_symbols_hw} / {@code event_symbols_sw} in
 * {@code tools/perf/util/parse-events.c}; config values from {@code enum perf_hw_id} / {@code perf_sw_ids} in uapi
 * {@code linux/perf_event.h}). The clocks are counted in ns and printed in msec.
 */
public final class SymbolicEvents {
    private static final List<SymbolicEvent> ALL;

    static {
        List<SymbolicEvent> l = new ArrayList<>();
        hw(l, "cpu-cycles", 0, "cycles");
        hw(l, "instructions", 1);
        hw(l, "cache-references", 2);
        hw(l, "cache-misses", 3);
        hw(l, "branch-instructions", 4, "branches");
        hw(l, "branch-misses", 5);
        hw(l, "bus-cycles", 6);
        hw(l, "stalled-cycles-frontend", 7, "idle-cycles-frontend");
        hw(l, "stalled-cycles-backend", 8, "idle-cycles-backend");
        hw(l, "ref-cycles", 9);
        sw(l, "alignment-faults", 7, "", 1);
        sw(l, "bpf-output", 10, "", 1);
        sw(l, "cgroup-switches", 11, "", 1);
        sw(l, "context-switches", 3, "", 1, "cs");
        sw(l, "cpu-clock", 0, "msec", 1e-6);
        sw(l, "cpu-migrations", 4, "", 1, "migrations");
        sw(l, "dummy", 9, "", 1);
        sw(l, "emulation-faults", 8, "", 1);
        sw(l, "major-faults", 6, "", 1);
        sw(l, "minor-faults", 5, "", 1);
        sw(l, "page-faults", 2, "", 1, "faults");
        sw(l, "task-clock", 1, "msec", 1e-6);
        ALL = List.copyOf(l);
    }

    private SymbolicEvents() {
    }

    /** @return hardware events (perf list order), then software events (alphabetical, as perf list prints them) */
    public static List<SymbolicEvent> all() {
        return ALL;
    }

    /** @return whether the event is one of the software clocks whose value is ns ({@code evsel__is_clock}) */
    public static boolean isClock(int type, long config) {
        return type == PerfType.SOFTWARE && (config == 0 || config == 1);
    }

    private static void hw(List<SymbolicEvent> l, String name, long config, String... aliases) {
        l.add(new SymbolicEvent(name, List.of(aliases), "hardware", PerfType.HARDWARE, config, "Hardware event", "", 1.0));
    }

    private static void sw(List<SymbolicEvent> l, String name, long config, String unit, double scale, String... aliases) {
        l.add(new SymbolicEvent(name, List.of(aliases), "software", PerfType.SOFTWARE, config, "Software event", unit, scale));
    }
}
