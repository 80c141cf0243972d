package dev.dfx.record;

import dev.dfx.chunk.BufferKind;
import dev.dfx.error.BadInputException;
import java.util.List;

/**
 * The five subsystems and the buffer kinds each writes: a subsystem's kinds are the kind table of
 * its chunk file, a kind's id being its index in {@link #kinds()}.
 */
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
    private final List<BufferKind> kinds;

    Subsystem(String id, BufferKind... kinds) {
        this.id = id;
        this.kinds = List.of(kinds);
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i].id() != i) {
                throw new IllegalStateException(id + ": kind " + kinds[i].name() + " has id " + kinds[i].id()
                        + " at index " + i + " of the kind table");
            }
        }
    }

    /** @return the subsystem's name as used on the command line and in file names */
    public String id() {
        return id;
    }

    /** @return its buffer kinds, the kind table of its chunk file; a kind's index in this list is its id */
    public List<BufferKind> kinds() {
        return kinds;
    }

    /**
     * @param id a subsystem name, e.g. {@code swimlane}, in any case
     * @throws BadInputException naming the known subsystems when {@code id} is none of them
     */
    public static Subsystem of(String id) {
        for (Subsystem s : values()) {
            if (s.id.equalsIgnoreCase(id)) {
                return s;
            }
        }
        throw new BadInputException("unknown subsystem '" + id + "'; expected one of swimlane, pmu, deps, args, scopes");
    }

    /**
     * @param kind a buffer kind of the record schemas, e.g. {@link CoreTaskRecord#KIND}
     * @return the subsystem that writes it
     * @throws IllegalArgumentException when no subsystem does
     */
    public static Subsystem of(BufferKind kind) {
        for (Subsystem s : values()) {
            if (s.kinds.contains(kind)) {
                return s;
            }
        }
        throw new IllegalArgumentException("buffer kind " + kind.name() + " is not one of the record schemas");
    }
}
