package dev.dfx.rundir;

import java.util.Locale;

/** Which kind of runtime thread writes a lane (docs/glossary.md: a lane has exactly one writer thread). */
public enum ThreadRole {
    /** A core thread ({@code dfx-core-N}): core task and pmu lanes. */
    CORE,
    /** A scheduler thread ({@code dfx-sched-N}): scheduler task, phase and args lanes. */
    SCHEDULER,
    /** The orchestrator thread ({@code dfx-orch}): orchestrator phase, deps and scopes lanes. */
    ORCHESTRATOR;

    /** @return the lower-case name used in run.json, e.g. {@code core} */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param id a name written by {@link #id()}
     * @return the role
     * @throws IllegalArgumentException on an unknown name
     */
    public static ThreadRole of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
