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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Where the agent's cost per thread-pool task goes: the agent's hooks called directly, in this JVM, into a region
 * hosted here ({@link JavaSliceBenchmark.Region}), on one thread (submit and run on one lane; in a pool they are two,
 * which costs the same per record). {@code plainTask} is what a pool does per task without the agent (a
 * {@code FutureTask} around the work, run), {@code agentTask} the same with the agent's {@code execute} hook
 * ({@link Hooks#wrap}: the names, the submit's instant and flow begin, the wrapper) and its wrapper's run (slice
 * begin, flow end, slice end); their difference is the agent's CPU cost per task. {@code wrap} and
 * {@code submitEvents}/{@code runEvents} split it: the hook with its name lookup, and the producer's records alone
 * (with names the caller already has). Bursts of {@value #BURST} tasks, timed whole, with the host's drain between
 * them ({@link JavaSliceBenchmark#BURST}). Never asserted.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 100)
@Measurement(iterations = 200)
@OperationsPerInvocation(AgentPathBenchmark.BURST)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED"})
public class AgentPathBenchmark {
    /** Tasks per measured burst: at most 5 records each, 100,000 records, 25 of a lane's 64 buffers. */
    static final int BURST = 20_000;

    /** The work of a task: nothing, so that what is measured is the task's handling. */
    static final class Work implements Runnable {
        @Override
        public void run() {
        }
    }

    private static final Runnable WORK = new Work();

    @Benchmark
    public void plainTask(Blackhole bh) {
        for (int i = 0; i < BURST; i++) {
            FutureTask<?> t = new FutureTask<>(WORK, null);
            t.run();
            bh.consume(t);
        }
    }

    @Benchmark
    public void agentTask(JavaSliceBenchmark.Region r, Blackhole bh) {
        for (int i = 0; i < BURST; i++) {
            Runnable t = Hooks.wrap(new FutureTask<>(WORK, null));
            t.run();
            bh.consume(t);
        }
    }

    @Benchmark
    public void wrap(JavaSliceBenchmark.Region r, Blackhole bh) {
        for (int i = 0; i < BURST; i++) {
            bh.consume(Hooks.wrap(new FutureTask<>(WORK, null)));
        }
    }

    @Benchmark
    public void submitEvents(JavaSliceBenchmark.Region r, Blackhole bh) {
        for (int i = 0; i < BURST; i++) {
            bh.consume(TaskEvents.submit("submit Work", "Work"));
        }
    }

    @Benchmark
    public void runEvents(JavaSliceBenchmark.Region r) {
        for (int i = 0; i < BURST; i++) {
            long start = TaskEvents.runBegin("Work", "Work", 1);
            TaskEvents.runEnd("Work", "Work", 1, start);
        }
    }
}
