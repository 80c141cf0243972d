package dev.dfx.bench.java;

import dev.dfx.agent.Hooks;
import dev.dfx.java.TaskEvents;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where the agent's cost per thread-pool task goes: the agent's hooks called directly, in this JVM, into a region
 * hosted here ({@link JavaSliceBenchmark.Region}), on one thread (submit and run on one lane; in a pool they are two,
 * which costs the same per record). {@code plainTask} is what a pool does per task without the agent (a
 * {@code FutureTask} around the work, run), {@code agentTask} the same with the agent's {@code execute} hook
 * ({@link Hooks#wrap}: the names, the submit's instant and flow begin, the wrapper) and its wrapper's run (slice
 * begin, flow end, slice end); their difference is the agent's CPU cost per task. {@code wrap} and
 * {@code submitEvents}/{@code runEvents} split it: the hook with its name lookup, and the producer's records alone
 * (with names the caller already has). Never asserted.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED"})
public class AgentPathBenchmark {
    /** The work of a task: nothing, so that what is measured is the task's handling. */
    static final class Work implements Runnable {
        @Override
        public void run() {
        }
    }

    private static final Runnable WORK = new Work();

    @Benchmark
    public FutureTask<?> plainTask() {
        FutureTask<?> t = new FutureTask<>(WORK, null);
        t.run();
        return t;
    }

    @Benchmark
    public Runnable agentTask(JavaSliceBenchmark.Region r) {
        Runnable t = Hooks.wrap(new FutureTask<>(WORK, null));
        t.run();
        return t;
    }

    @Benchmark
    public Runnable wrap(JavaSliceBenchmark.Region r) {
        return Hooks.wrap(new FutureTask<>(WORK, null));
    }

    @Benchmark
    public long submitEvents(JavaSliceBenchmark.Region r) {
        return TaskEvents.submit("submit Work", "Work");
    }

    @Benchmark
    public void runEvents(JavaSliceBenchmark.Region r) {
        long start = TaskEvents.runBegin("Work", "Work", 1);
        TaskEvents.runEnd("Work", "Work", 1, start);
    }
}
