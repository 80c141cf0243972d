// Tasks.java: a thread pool, fork/join recursion, CompletableFuture stages and virtual threads; the dfx Java agent
// records each task (submit instant, run slice named after its class, submit-to-run arrow) with no change here.
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RecursiveTask;

public class Tasks {
    record Resize(int image) implements Runnable {
        public void run() {
            busy(200_000);
        }
    }

    static final class Sum extends RecursiveTask<Long> {
        final int from, to;

        Sum(int from, int to) {
            this.from = from;
            this.to = to;
        }

        protected Long compute() {
            if (to - from <= 10_000) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += i;
                }
                return s;
            }
            Sum left = new Sum(from, (from + to) / 2);
            left.fork();
            return new Sum((from + to) / 2, to).compute() + left.join();
        }
    }

    static void busy(int n) {
        double x = 0;
        for (int i = 0; i < n; i++) {
            x += Math.sqrt(i);
        }
        if (x < 0) {
            System.out.println(x);
        }
    }

    public static void main(String[] args) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                done.add(pool.submit(new Resize(i)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        long sum = new Sum(0, 100_000).invoke();
        int stages = CompletableFuture.supplyAsync(() -> 20).thenApplyAsync(v -> v + 1).join();
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 100; i++) {
                virtual.submit(() -> busy(10_000));
            }
        }
        System.out.println("tasks: sum " + sum + ", stages " + stages);
    }
}
