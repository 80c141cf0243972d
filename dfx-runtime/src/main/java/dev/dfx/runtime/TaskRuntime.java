package dev.dfx.runtime;

import dev.dfx.runtime.graph.TaskGraph;
import dev.dfx.runtime.probe.Probe;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one program on a fresh set of threads: {@code cores} core threads ({@code dfx-core-N}),
 * {@code schedulers} scheduler threads ({@code dfx-sched-N}) and one orchestrator thread
 * ({@code dfx-orch}), all daemon platform threads that exit when the run ends.
 *
 * <pre>{@code
 * RunResult r = TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, orch -> {
 *     Function axpy = orch.function("axpy", a -> ...);
 *     Tensor x = orch.tensor("x", 1024), y = orch.tensor("y", 1024);
 *     orch.submit(axpy, Args.of().in(x.all()).out(y.all()).scalar(2f));
 * });
 * }</pre>
 */
public final class TaskRuntime {
    private TaskRuntime() {
    }

    /**
     * Runs {@code program} and waits until every task it submitted has run and retired.
     *
     * @param config sizes of the run
     * @param probe  the recorder's attachment, or {@link Probe#NONE}
     * @return wall time, task count and (if kept) the dependency graph
     * @throws TaskFailedException when a kernel, the program or a probe hook threw; the message names the
     *                             first failure. Every submitted task still ran unless a probe failed.
     */
    public static RunResult run(RuntimeConfig config, Probe probe, Program program) {
        return run(config, probe, program, new RunControl());
    }

    /**
     * Runs {@code program} as {@link #run(RuntimeConfig, Probe, Program)} does, stoppable through {@code control}.
     *
     * @param control cancels the run from another thread
     * @throws TaskFailedException also when the run was cancelled (message {@code "cancelled: <reason>"})
     */
    public static RunResult run(RuntimeConfig config, Probe probe, Program program, RunControl control) {
        return run(config, probe, program, control, Idler.PARK_NANOS);
    }

    /**
     * Runs {@code program} as {@link #run(RuntimeConfig, Probe, Program, RunControl)} does, every runtime thread
     * parking at most {@code parkNanos} at a time when it waits (tests: a long park turns a lost wake-up into a stall).
     */
    static RunResult run(RuntimeConfig config, Probe probe, Program program, RunControl control, long parkNanos) {
        RunState rs = new RunState(config, probe);
        OrchestratorImpl orch = new OrchestratorImpl(rs);
        List<Thread> workers = new ArrayList<>();
        rs.coreIdlers = new Idler[config.cores()];
        for (int c = 0; c < config.cores(); c++) {
            Thread t = thread("dfx-core-" + c, new CoreWorker(rs, c));
            rs.coreIdlers[c] = new Idler(t, parkNanos);
            workers.add(t);
        }
        rs.schedIdlers = new Idler[config.schedulers()];
        for (int s = 0; s < config.schedulers(); s++) {
            Thread t = thread("dfx-sched-" + s, new Scheduler(rs, s));
            rs.schedIdlers[s] = new Idler(t, parkNanos);
            workers.add(t);
        }
        Thread orchThread = thread("dfx-orch", () -> orch.runProgram(program));
        rs.orchIdler = new Idler(orchThread, parkNanos);

        control.attach(rs);
        long start;
        try {
            probe.start(rs.shape);
            workers.forEach(Thread::start);
            start = System.nanoTime();
            orchThread.start();
            join(orchThread);
            rs.stopping = true;
            rs.wakeAll();
            workers.forEach(TaskRuntime::join);
        } finally {
            control.detach();
        }

        if (rs.failure() != null) {
            throw new TaskFailedException(rs.failure(), rs.failureCause());
        }
        TaskGraph graph = config.keepGraph() ? new TaskGraph(orch.taskInfos(), rs.edges) : null;
        return new RunResult(orch.endNanos() - start, orch.submitted(), config, graph);
    }

    /**
     * A runtime thread running {@code body}, which it lets go of as it starts: a platform thread keeps its Runnable
     * after it ended, and the recording's lane writers keep the threads that wrote to them (stop's proof that a
     * writer ended), so a body kept there would keep the finished run (every task, the resolver's tensor map) alive
     * through the post-recording work.
     */
    private static Thread thread(String name, Runnable body) {
        Runnable[] held = {body}; // published to the thread by Thread.start
        Thread t = new Thread(() -> {
            Runnable run = held[0];
            held[0] = null;
            run.run();
        }, name);
        t.setDaemon(true);
        return t;
    }

    private static void join(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the run cannot be abandoned half way; finish, then restore the flag
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
