package dev.dfx.bench.java;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;

/**
 * The program {@link AgentOverhead} runs in each configuration:
 * {@code pool|virtual TASKS WORK WARMUP ROUNDS WINDOW} runs WARMUP untimed and then ROUNDS timed rounds of TASKS
 * tasks of WORK iterations of arithmetic each (the driver sizes WORK to about 10 µs), submitted with
 * {@code ExecutorService.submit} to one fixed pool of one thread per CPU (made once, kept across rounds) or to a
 * virtual-thread-per-task executor. At most WINDOW tasks are in flight: the submitting thread waits for a task to end
 * before it submits more, so the submit rate is the pool's completion rate (a steady state, as a service's executor
 * sees), not a burst that fills the queue with a round's tasks at once.
 *
 * <p>Prints one line per timed round: {@code round WALL TOTAL APP JIT GC} in ns per task, where WALL is from the
 * first submit to the last task's end and the others are CPU time over the same round, from each thread's
 * {@code /proc/self/task/TID/schedstat} (ns on a CPU, exact, unlike the 10 ms steps of the process's times): TOTAL
 * every thread of the process, JIT the compiler threads, GC the garbage collector's and the VM's own threads, APP the
 * rest (the submitting thread, the pool's threads or the virtual threads' carriers, and any thread a recorder adds:
 * JFR's recorder and periodic-task threads). A thread that ends during a round (a compiler thread the JVM retires)
 * takes its time with it; the driver's TOTAL column says when that mattered.
 */
public final class PoolWorkload {
    private PoolWorkload() {
    }

    /** Where the tasks' results go, so that the JIT keeps their work. */
    static volatile double sink;

    /** A task of a fixed amount of arithmetic; ending, it frees one place of the in-flight window. */
    record Work(long iterations, Semaphore window) implements Runnable {
        @Override
        public void run() {
            sink = work(iterations);
            window.release();
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
        int warmup = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        int window = Integer.parseInt(args[5]);
        try (ExecutorService pool = virtual ? Executors.newVirtualThreadPerTaskExecutor()
                : Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors())) {
            for (int r = 0; r < warmup; r++) {
                round(pool, tasks, work, window);
            }
            for (int r = 0; r < rounds; r++) {
                Map<Long, Thread0> before = threads();
                long t0 = System.nanoTime();
                round(pool, tasks, work, window);
                long wall = System.nanoTime() - t0;
                long[] cpu = cpu(before, threads());
                System.out.printf("round %d %d %d %d %d%n", wall / tasks, cpu[0] / tasks, cpu[1] / tasks,
                        cpu[2] / tasks, cpu[3] / tasks);
            }
        }
    }

    private static void round(ExecutorService pool, int tasks, long work, int window) throws InterruptedException {
        Semaphore inFlight = new Semaphore(window);
        for (int i = 0; i < tasks; i++) {
            inFlight.acquire();
            pool.submit(new Work(work, inFlight));
        }
        inFlight.acquire(window); // every task has ended
    }

    /** A thread's name and CPU ns at one moment. */
    private record Thread0(String name, long cpuNs) {
    }

    /** @return every thread of this process: its name ({@code comm}) and ns on a CPU ({@code schedstat}) */
    private static Map<Long, Thread0> threads() throws IOException {
        Map<Long, Thread0> m = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String comm = Files.readString(t.resolve("comm")).strip();
                    String stat = Files.readString(t.resolve("schedstat"));
                    m.put(Long.parseLong(t.getFileName().toString()),
                            new Thread0(comm, Long.parseLong(stat.substring(0, stat.indexOf(' ')))));
                } catch (IOException e) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return m;
    }

    /** @return {total, app, jit, gc} CPU ns between two snapshots */
    private static long[] cpu(Map<Long, Thread0> before, Map<Long, Thread0> after) {
        long[] sum = new long[4];
        for (var e : after.entrySet()) {
            Thread0 b = before.get(e.getKey());
            long d = e.getValue().cpuNs() - (b == null ? 0 : b.cpuNs());
            String n = e.getValue().name();
            int kind = n.contains("CompilerThre") ? 2
                    : n.startsWith("GC Thread") || n.startsWith("G1 ") || n.equals("VM Thread")
                    || n.startsWith("VM Periodic") ? 3 : 1;
            sum[0] += d;
            sum[kind] += d;
        }
        return sum;
    }
}
