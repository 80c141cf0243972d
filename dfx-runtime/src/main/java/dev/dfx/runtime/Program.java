package dev.dfx.runtime;

/** A workload's orchestration program: runs on the orchestrator thread and submits tasks. */
@FunctionalInterface
public interface Program {
    /**
     * Submits the work. May return before the tasks finish; the runtime waits for all of them.
     *
     * @param orch the orchestrator; usable only from the calling thread
     */
    void run(Orchestrator orch);
}
