package dev.dfx.bench.java;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The program {@link AgentOverhead} runs in each configuration: {@code pool TASKS MICROS} submits TASKS tasks that
 * each spin MICROS µs to a fixed pool of one thread per CPU; {@code virtual TASKS MICROS} runs each in its own virtual
 * thread. One untimed round first (class loading, JIT), then a timed one; prints {@code ns_per_task N}: wall ns from
 * the first submit to the last task's end, divided by TASKS.
 */
public final class PoolWorkload {
    private PoolWorkload() {
    }

    /** A task that spins for its duration (on the clock, so that its length does not depend on the JIT). */
    record Spin(long nanos) implements Runnable {
        @Override
        public void run() {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        boolean virtual = args[0].equals("virtual");
        int tasks = Integer.parseInt(args[1]);
        long nanos = Long.parseLong(args[2]) * 1000;
        round(virtual, tasks / 4, nanos);
        long t0 = System.nanoTime();
        round(virtual, tasks, nanos);
        long wall = System.nanoTime() - t0;
        System.out.println("ns_per_task " + wall / tasks);
    }

    private static void round(boolean virtual, int tasks, long nanos) throws Exception {
        try (ExecutorService pool = virtual ? Executors.newVirtualThreadPerTaskExecutor()
                : Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors())) {
            List<Future<?>> done = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                done.add(pool.submit(new Spin(nanos)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }
}
