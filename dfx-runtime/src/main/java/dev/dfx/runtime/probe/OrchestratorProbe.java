package dev.dfx.runtime.probe;

import dev.dfx.record.ScopePhase;

/**
 * Hooks of the orchestrator thread (swimlane orchestrator phase records, deps submit records, scopes
 * records). Called only on the orchestrator thread; not required to be thread-safe.
 */
public interface OrchestratorProbe {
    /** Observes nothing. */
    OrchestratorProbe NONE = new OrchestratorProbe() {
    };

    /**
     * A submit returned; {@code task} holds everything it said (explicit deps, arguments, function,
     * flags). Called after {@code endNs}, so the hook's own cost is outside the submit.
     *
     * @param startNs      submit entry
     * @param endNs        task queued for the schedulers
     * @param windowWaitNs part of the submit spent waiting for room in the task window
     */
    default void submitted(TaskView task, long startNs, long endNs, long windowWaitNs) {
    }

    /**
     * Called once, right after the probe is created, on the orchestrator thread.
     *
     * @return whether {@link #scope} needs {@link ScopeStats#siteFile()} and {@link ScopeStats#siteLine()}: finding the
     *         caller's source line walks the stack (microseconds per scope), so it is done only when some probe says
     *         yes; otherwise the site reads {@code "?"}, line -1
     */
    default boolean wantsScopeSites() {
        return false;
    }

    /** A scope was entered ({@link ScopePhase#BEGIN}) or left ({@link ScopePhase#END}). */
    default void scope(ScopePhase phase, ScopeStats stats) {
    }

    /** The orchestrator thread is about to exit (after every task finished): flush lanes here. */
    default void close() {
    }
}
