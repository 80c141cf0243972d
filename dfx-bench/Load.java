// Load.java: a fixed pool of THREADS threads running TASKS tasks, each a slice with an instant in it, then TASKS/10
// virtual threads each a slice with a counter sample in it; under dfx record the agent adds each task's submit
// instant, run slice and submit-to-run flow. The post-recording work (the trace's flow arrows) used to grow with the
// square of the tasks; dfx-bench/README.md has the times. From the checkout's root, with JDK 25 first on PATH:
//   ./dfx record -- java -cp dfx-java/target/dfx-java-0.1.0-SNAPSHOT.jar dfx-bench/Load.java 32 100000
import dev.dfx.java.Dfx;
import dev.dfx.java.Slice;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

public class Load {
    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int tasks = Integer.parseInt(args[1]);
        AtomicLong sum = new AtomicLong();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < tasks; i++) {
                final int n = i;
                pool.submit(() -> {
                    try (Slice s = Dfx.slice("task")) {
                        Dfx.instant("step", "n", n);
                        sum.addAndGet(n);
                    }
                });
            }
        }
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < tasks / 10; i++) {
                final int n = i;
                virtual.submit(() -> {
                    try (Slice s = Dfx.slice("virtual")) {
                        Dfx.counter("v", n);
                    }
                });
            }
        }
        System.out.println("load: sum " + sum.get());
    }
}
