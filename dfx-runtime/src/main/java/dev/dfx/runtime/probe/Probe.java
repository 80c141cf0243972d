package dev.dfx.runtime.probe;

/**
 * A recorder's attachment to one run. {@link #start} is called once on the thread that starts the run,
 * before any runtime thread exists; then every runtime thread asks for its own lane probe first thing and
 * uses it alone until it {@code close()}s it as its last act. All of that happens-before
 * {@link dev.dfx.runtime.TaskRuntime#run} returns. Every method has a no-op default.
 */
public interface Probe {
    /** Observes nothing; the runtime then takes no timestamps and calls no hooks. */
    Probe NONE = new Probe() {
    };

    /** @param shape thread counts and sizes of the run, before any thread starts */
    default void start(RuntimeShape shape) {
    }

    /**
     * Called on core {@code core}'s thread before its first task.
     *
     * @return the core's probe, or {@link CoreProbe#NONE}
     */
    default CoreProbe core(int core) {
        return CoreProbe.NONE;
    }

    /**
     * Called on scheduler {@code scheduler}'s thread before its first loop iteration.
     *
     * @return the scheduler's probe, or {@link SchedulerProbe#NONE}
     */
    default SchedulerProbe scheduler(int scheduler) {
        return SchedulerProbe.NONE;
    }

    /**
     * Called on the orchestrator thread before the program runs.
     *
     * @return the orchestrator's probe, or {@link OrchestratorProbe#NONE}
     */
    default OrchestratorProbe orchestrator() {
        return OrchestratorProbe.NONE;
    }
}
