package dev.dfx.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The program the agent tests record: a thread pool ({@value #POOL_TASKS} {@code PoolTask} runnables and
 * {@value #POOL_CALLS} {@code PoolCall} callables through invokeAll; a single-thread pool held by a {@code Blocker}
 * while two {@code Unrun} tasks are taken out of its queue, one by remove, one by cancel and purge), fork/join recursion ({@code Fib} of
 * {@value #FIB}), a parallel stream, {@value #CHAINS} CompletableFuture chains of three async stages ({@code Supply},
 * {@code Apply}, {@code Accept}), a scheduled pool ({@value #SCHEDULED} one-shot {@code Delayed} callables, a
 * {@code Tick} at a fixed rate and a {@code Tock} with a fixed delay that each run {@value #TICKS} times, one
 * {@code Later} through execute), and {@value #VIRTUAL} virtual threads (half {@code VTask} started directly, half
 * {@code VCall} submitted to a virtual-thread-per-task executor). Prints what it computed and exits with status 3,
 * so that a test sees output and status pass through unchanged.
 */
public final class TaskApp {
    static final int POOL_TASKS = 1000;
    static final int POOL_CALLS = 100;
    static final int FIB = 15;
    static final int CHAINS = 200;
    static final int VIRTUAL = 10_000;
    static final int SCHEDULED = 50;
    static final int TICKS = 20;

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

    /** Holds a single-thread pool's thread until the gate opens. */
    static final class Blocker implements Runnable {
        private final CountDownLatch gate;

        Blocker(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        public void run() {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A task taken out of the queue (remove, or cancel and purge) before it runs. */
    static final class Unrun implements Runnable {
        @Override
        public void run() {
            throw new AssertionError("a task removed from the queue ran");
        }
    }

    /** A one-shot scheduled task. */
    static final class Delayed implements Callable<Integer> {
        private final int i;

        Delayed(int i) {
            this.i = i;
        }

        @Override
        public Integer call() {
            return i;
        }
    }

    /**
     * A periodic task that ends itself at its {@code limit}-th run by throwing (which stops a periodic task), so
     * that it runs exactly that often.
     */
    static class Tick implements Runnable {
        final AtomicInteger runs = new AtomicInteger();
        private final int limit;

        Tick(int limit) {
            this.limit = limit;
        }

        @Override
        public void run() {
            if (runs.incrementAndGet() == limit) {
                throw new IllegalStateException("enough");
            }
        }
    }

    /** {@link Tick} under another name, for scheduleWithFixedDelay. */
    static final class Tock extends Tick {
        Tock(int limit) {
            super(limit);
        }
    }

    /** A task given to a scheduled pool's execute. */
    static final class Later implements Runnable {
        @Override
        public void run() {
            Thread.onSpinWait();
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

        // the queue's identity: remove(task) and purge() find the application's queued tasks
        ThreadPoolExecutor one = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        CountDownLatch gate = new CountDownLatch(1);
        one.execute(new Blocker(gate));
        Unrun unrun = new Unrun();
        one.execute(unrun);
        Future<?> cancelled = one.submit(new Unrun());
        boolean removed = one.remove(unrun);
        cancelled.cancel(false);
        one.purge();
        int queued = one.getQueue().size();
        gate.countDown();
        one.shutdown();
        one.awaitTermination(1, TimeUnit.MINUTES);

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

        ScheduledExecutorService sched = Executors.newScheduledThreadPool(2);
        List<ScheduledFuture<Integer>> delayed = new ArrayList<>();
        for (int i = 0; i < SCHEDULED; i++) {
            delayed.add(sched.schedule(new Delayed(i), i % 3, TimeUnit.MILLISECONDS));
        }
        Tick tick = new Tick(TICKS);
        Tock tock = new Tock(TICKS);
        ScheduledFuture<?> rate = sched.scheduleAtFixedRate(tick, 0, 1, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> delay = sched.scheduleWithFixedDelay(tock, 0, 1, TimeUnit.MILLISECONDS);
        sched.execute(new Later());
        long delayedSum = 0;
        for (ScheduledFuture<Integer> f : delayed) {
            delayedSum += f.get();
        }
        for (ScheduledFuture<?> f : List.of(rate, delay)) {
            try {
                f.get();
            } catch (ExecutionException e) {
                // the periodic task's last run ended it
            }
        }
        sched.shutdown();
        sched.awaitTermination(1, TimeUnit.MINUTES);

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
                + " chains " + chainSum[0] + " virtual " + (vts.size() + vcalls) + " scheduled " + delayedSum
                + " ticks " + tick.runs + " tocks " + tock.runs + " removed " + removed + " queued " + queued);
        System.exit(3);
    }
}
