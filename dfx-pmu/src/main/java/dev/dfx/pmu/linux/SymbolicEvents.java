package dev.dfx.pmu.linux;

import dev.dfx.pmu.SymbolicEvent;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SoftwareId;
import java.util.ArrayList;
import java.util.List;

/**
 * Linux's generic events by name, as perf 6.1 knows them ({@code event_symbols_hw} / {@code event_symbols_sw} in
 * {@code tools/perf/util/parse-events.c}; config values from {@code enum perf_hw_id} / {@code perf_sw_ids} in uapi
 * {@code linux/perf_event.h}). The clocks are counted in ns and printed in msec.
 */
public final class SymbolicEvents {
    /** The clocks count ns and print msec. */
    private static final double NS_TO_MSEC = 1e-6;
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
        sw(l, "alignment-faults", SoftwareId.ALIGNMENT_FAULTS, "", 1);
        sw(l, "bpf-output", SoftwareId.BPF_OUTPUT, "", 1);
        sw(l, "cgroup-switches", SoftwareId.CGROUP_SWITCHES, "", 1);
        sw(l, "context-switches", SoftwareId.CONTEXT_SWITCHES, "", 1, "cs");
        sw(l, "cpu-clock", SoftwareId.CPU_CLOCK, "msec", NS_TO_MSEC);
        sw(l, "cpu-migrations", SoftwareId.CPU_MIGRATIONS, "", 1, "migrations");
        sw(l, "dummy", SoftwareId.DUMMY, "", 1);
        sw(l, "emulation-faults", SoftwareId.EMULATION_FAULTS, "", 1);
        sw(l, "major-faults", SoftwareId.PAGE_FAULTS_MAJ, "", 1);
        sw(l, "minor-faults", SoftwareId.PAGE_FAULTS_MIN, "", 1);
        sw(l, "page-faults", SoftwareId.PAGE_FAULTS, "", 1, "faults");
        sw(l, "task-clock", SoftwareId.TASK_CLOCK, "msec", NS_TO_MSEC);
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
        return type == PerfType.SOFTWARE && (config == SoftwareId.CPU_CLOCK || config == SoftwareId.TASK_CLOCK);
    }

    private static void hw(List<SymbolicEvent> l, String name, long config, String... aliases) {
        l.add(new SymbolicEvent(name, List.of(aliases), "hardware", PerfType.HARDWARE, config, "Hardware event", "", 1.0));
    }

    private static void sw(List<SymbolicEvent> l, String name, long config, String unit, double scale, String... aliases) {
        l.add(new SymbolicEvent(name, List.of(aliases), "software", PerfType.SOFTWARE, config, "Software event", unit, scale));
    }
}
