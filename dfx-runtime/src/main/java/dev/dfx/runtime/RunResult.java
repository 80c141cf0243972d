package dev.dfx.runtime;

import dev.dfx.runtime.graph.TaskGraph;

/**
 * What one run did.
 *
 * @param wallNanos from the program's start to the last task's retirement, in ns
 * @param tasks     tasks submitted (each ran exactly once)
 * @param config    the run's configuration
 * @param graph     the dependency graph used, or null when {@link RuntimeConfig#keepGraph()} is off
 */
public record RunResult(long wallNanos, long tasks, RuntimeConfig config, TaskGraph graph) {
    /** @return tasks per second of wall time */
    public double tasksPerSecond() {
        return wallNanos == 0 ? 0 : tasks * 1e9 / wallNanos;
    }
}
