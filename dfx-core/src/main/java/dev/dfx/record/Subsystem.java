package dev.dfx.record;

import java.util.List;

/** The five subsystems and the record kinds each writes (DESIGN.md §6). */
public enum Subsystem {
    /** Task bars on cores, scheduler dispatch/finish, scheduler phases, orchestrator submits. */
    SWIMLANE("swimlane", CoreTaskRecord.KIND, SchedTaskRecord.KIND, SchedPhaseRecord.KIND, OrchPhaseRecord.KIND),
    /** Per-task counter deltas. */
    PMU("pmu", PmuRecord.KIND),
    /** Submit records for rebuilding the dependency graph. */
    DEPS("deps", SubmitRecord.KIND),
    /** Captured task arguments (payload bytes in a per-lane arena). */
    ARGS("args", ArgRecord.KIND),
    /** Scope entry/exit resource statistics. */
    SCOPES("scopes", ScopeRecord.KIND);

    private final String id;
    private final List<RecordKind> kinds;

    Subsystem(String id, RecordKind... kinds) {
        this.id = id;
        this.kinds = List.of(kinds);
    }

    /** @return the subsystem's name as used on the command line and in file names */
    public String id() {
        return id;
    }

    /** @return its record kinds; a kind's index in this list is its kind id in the subsystem */
    public List<RecordKind> kinds() {
        return kinds;
    }

    /**
     * @param id a subsystem name, e.g. {@code swimlane}, in any case
     * @throws dev.dfx.error.BadInputException naming the known subsystems when {@code id} is none of them
     */
    public static Subsystem of(String id) {
        for (Subsystem s : values()) {
            if (s.id.equalsIgnoreCase(id)) {
                return s;
            }
        }
        throw new dev.dfx.error.BadInputException("unknown subsystem '" + id
                + "'; expected one of swimlane, pmu, deps, args, scopes");
    }
}
