package dev.dfx.bench;

import dev.dfx.pmu.accel.ActivityModel;
import dev.dfx.pmu.accel.Architecture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The accelerator activity model's per-task update, {@link ActivityModel#onTask} (36 counters at one location,
 * release stores into the calling thread's array). Reports numbers only.
 *
 * <p>{@code java -jar dfx-bench/target/benchmarks.jar AccelModelBench -f 1}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AccelModelBench {
    private final ActivityModel model = new ActivityModel(Architecture.GFX12);
    private long taskId;

    /** One executed task recorded. */
    @Benchmark
    public long onTask() {
        return model.onTask(taskId++, 1, 5, 1000, 10_000, 4096).waves();
    }
}
