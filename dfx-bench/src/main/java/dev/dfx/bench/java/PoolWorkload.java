package dev.dfx.bench.java;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The program {@link AgentOverhead} runs in each configuration: {@code pool TASKS WORK} submits TASKS tasks of WORK
 * iterations of arithmetic each (the driver sizes WORK to about 10 µs) to a fixed pool of one thread per CPU;
 * {@code virtual TASKS WORK} runs each in its own virtual thread. One untimed round first (class loading, JIT), then
 * a timed one; prints {@code ns_per_task WALL CPU}: wall ns from the first submit to the last task's end, and the
 * process's CPU ns (all threads, user and system) over the same round, each divided by TASKS. The CPU time is what
 * a busy machine does not distort: a preempted task still does its whole work.
 */
public final class PoolWorkload {
    private PoolWorkload() {
    }

    /** Where the tasks' results go, so that the JIT keeps their work. */
    static volatile double sink;

    /** A task of a fixed amount of arithmetic. */
    record Work(long iterations) implements Runnable {
        @Override
        public void run() {
            sink = work(iterations);
        }
    }

    /** @return a sum that depends on every iteration */
    static double work(long iterations) {
        double x = 0;
        for (long i = 0; i < iterations; i++) {
            x += Math.sqrt(i + x * 1e-9);
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        boolean virtual = args[0].equals("virtual");
        int tasks = Integer.parseInt(args[1]);
        long work = Long.parseLong(args[2]);
        round(virtual, tasks / 4, work);
        long c0 = cpuNs();
        long t0 = System.nanoTime();
        round(virtual, tasks, work);
        long wall = System.nanoTime() - t0;
        long cpu = cpuNs() - c0;
        System.out.println("ns_per_task " + wall / tasks + " " + cpu / tasks);
    }

    private static long cpuNs() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    private static void round(boolean virtual, int tasks, long work) throws Exception {
        try (ExecutorService pool = virtual ? Executors.newVirtualThreadPerTaskExecutor()
                : Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors())) {
            List<Future<?>> done = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                done.add(pool.submit(new Work(work)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }
}
