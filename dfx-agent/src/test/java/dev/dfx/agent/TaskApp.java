package dev.dfx.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The program the agent tests record: a thread pool ({@value #POOL_TASKS} {@code PoolTask} runnables and
 * {@value #POOL_CALLS} {@code PoolCall} callables through invokeAll), fork/join recursion ({@code Fib} of
 * {@value #FIB}), a parallel stream, {@value #CHAINS} CompletableFuture chains of three async stages ({@code Supply},
 * {@code Apply}, {@code Accept}), and {@value #VIRTUAL} virtual threads (half {@code VTask} started directly, half
 * {@code VCall} submitted to a virtual-thread-per-task executor). Prints what it computed and exits with status 3,
 * so that a test sees output and status pass through unchanged.
 */
public final class TaskApp {
    static final int POOL_TASKS = 1000;
    static final int POOL_CALLS = 100;
    static final int FIB = 15;
    static final int CHAINS = 200;
    static final int VIRTUAL = 10_000;

    private TaskApp() {
    }

    static final class PoolTask implements Runnable {
        private final long[] sink;
        private final int i;

        PoolTask(long[] sink, int i) {
            this.sink = sink;
            this.i = i;
        }

        @Override
        public void run() {
            sink[i] = (long) i * i;
        }
    }

    static final class PoolCall implements Callable<Integer> {
        private final int i;

        PoolCall(int i) {
            this.i = i;
        }

        @Override
        public Integer call() {
            return i + 1;
        }
    }

    static final class Fib extends RecursiveTask<Integer> {
        private final int n;

        Fib(int n) {
            this.n = n;
        }

        @Override
        protected Integer compute() {
            if (n <= 1) {
                return n;
            }
            Fib f1 = new Fib(n - 1);
            f1.fork();
            return new Fib(n - 2).compute() + f1.join();
        }
    }

    static final class Supply implements Supplier<Integer> {
        private final int i;

        Supply(int i) {
            this.i = i;
        }

        @Override
        public Integer get() {
            return i;
        }
    }

    static final class Apply implements Function<Integer, Integer> {
        @Override
        public Integer apply(Integer v) {
            return v * 2;
        }
    }

    static final class Accept implements Consumer<Integer> {
        private final long[] sink;

        Accept(long[] sink) {
            this.sink = sink;
        }

        @Override
        public void accept(Integer v) {
            synchronized (sink) {
                sink[0] += v;
            }
        }
    }

    static final class VTask implements Runnable {
        @Override
        public void run() {
            Thread.onSpinWait();
        }
    }

    static final class VCall implements Callable<Integer> {
        @Override
        public Integer call() {
            return 1;
        }
    }

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        long[] squares = new long[POOL_TASKS];
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < POOL_TASKS; i++) {
            done.add(pool.submit(new PoolTask(squares, i)));
        }
        for (Future<?> f : done) {
            f.get();
        }
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < POOL_CALLS; i++) {
            calls.add(new PoolCall(i));
        }
        long callSum = 0;
        for (Future<Integer> f : pool.invokeAll(calls)) {
            callSum += f.get();
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);

        ForkJoinPool fj = new ForkJoinPool(4);
        int fib = fj.invoke(new Fib(FIB));
        fj.shutdown();

        long streamSum = IntStream.range(0, 100_000).parallel().asLongStream().sum();

        long[] chainSum = new long[1];
        List<CompletableFuture<Void>> chains = new ArrayList<>();
        for (int i = 0; i < CHAINS; i++) {
            chains.add(CompletableFuture.supplyAsync(new Supply(i)).thenApplyAsync(new Apply())
                    .thenAcceptAsync(new Accept(chainSum)));
        }
        CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new)).join();

        List<Thread> vts = new ArrayList<>();
        for (int i = 0; i < VIRTUAL / 2; i++) {
            vts.add(Thread.startVirtualThread(new VTask()));
        }
        int vcalls = 0;
        try (ExecutorService vexec = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> fs = new ArrayList<>();
            for (int i = 0; i < VIRTUAL / 2; i++) {
                fs.add(vexec.submit(new VCall()));
            }
            for (Future<Integer> f : fs) {
                vcalls += f.get();
            }
        }
        for (Thread t : vts) {
            t.join();
        }
        long squareSum = 0;
        for (long s : squares) {
            squareSum += s;
        }
        System.out.println("squares " + squareSum + " calls " + callSum + " fib " + fib + " stream " + streamSum
                + " chains " + chainSum[0] + " virtual " + (vts.size() + vcalls));
        System.exit(3);
    }
}
