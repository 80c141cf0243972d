package dev.dfx.runtime;

/**
 * Sizes of one run. Defaults fit a 2-core machine: 1 scheduler, 2 cores.
 *
 * @param schedulers     scheduler threads, 1..64 ({@code -S})
 * @param cores          core threads, 1..256 ({@code -C}); core {@code c} belongs to scheduler
 *                       {@code c % schedulers}
 * @param window         task window per ring: submitted-but-not-retired tasks, 1..2^24; a full window
 *                       makes the orchestrator wait
 * @param coreQueueDepth tasks a scheduler may hand one core ahead of its completions, 1..64
 * @param submitQueue    capacity of the orchestrator-to-scheduler submit queue, 1..2^20
 * @param keepGraph      whether to keep the dependency graph ({@link RunResult#graph()})
 */
public record RuntimeConfig(int schedulers, int cores, int window, int coreQueueDepth, int submitQueue,
                            boolean keepGraph) {
    /** Task rings: ring = min(scope depth, RINGS - 1). */
    public static final int RINGS = 4;

    /** @throws IllegalArgumentException naming the first setting out of range */
    public RuntimeConfig {
        check("schedulers", schedulers, 64);
        check("cores", cores, 256);
        check("window", window, 1 << 24);
        check("core queue depth", coreQueueDepth, 64);
        check("submit queue", submitQueue, 1 << 20);
    }

    private static void check(String what, int v, int max) {
        if (v < 1 || v > max) {
            throw new IllegalArgumentException(what + " must be 1.." + max + ", got " + v);
        }
    }

    /** @return 1 scheduler, 2 cores, window 4096, core queue depth 2, submit queue 1024, graph kept */
    public static RuntimeConfig defaults() {
        return new RuntimeConfig(1, 2, 4096, 2, 1024, true);
    }

    /** @return a copy with {@code n} schedulers */
    public RuntimeConfig withSchedulers(int n) {
        return new RuntimeConfig(n, cores, window, coreQueueDepth, submitQueue, keepGraph);
    }

    /** @return a copy with {@code n} cores */
    public RuntimeConfig withCores(int n) {
        return new RuntimeConfig(schedulers, n, window, coreQueueDepth, submitQueue, keepGraph);
    }

    /** @return a copy with a task window of {@code n} per ring */
    public RuntimeConfig withWindow(int n) {
        return new RuntimeConfig(schedulers, cores, n, coreQueueDepth, submitQueue, keepGraph);
    }

    /** @return a copy that keeps (or not) the dependency graph */
    public RuntimeConfig withKeepGraph(boolean keep) {
        return new RuntimeConfig(schedulers, cores, window, coreQueueDepth, submitQueue, keep);
    }
}
