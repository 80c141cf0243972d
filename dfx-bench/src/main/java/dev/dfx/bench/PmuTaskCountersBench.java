package dev.dfx.bench;

import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.task.TaskCounters;
import dev.dfx.pmu.task.ThreadCounters;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the runtime's pmu subsystem pays per task: one {@code begin()} + {@code end()} pair of
 * {@link ThreadCounters} for a few event mixes. Reports numbers only.
 *
 * <p>{@code java -jar dfx-bench/target/benchmarks.jar PmuTaskCountersBench -f 1 -wi 3 -i 5}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PmuTaskCountersBench {
    @Param({"linux2", "linux4", "accel4", "jvm2", "mixed8"})
    public String mix;

    private TaskCounters counters;
    private ThreadCounters thread;
    private final long[] deltas = new long[TaskCounters.MAX_EVENTS];

    @Setup(Level.Trial)
    public void setUp() {
        PmuSystem system = PmuSystem.host(Architecture.GFX12);
        String spec = switch (mix) {
            case "linux2" -> "task-clock,page-faults";
            case "linux4" -> "task-clock,page-faults,context-switches,cpu-migrations";
            case "accel4" -> "accel/sq_waves/,accel/sq_waves,se=2,sa=1/,accel/grbm_count/,accel/gl2c_hit/";
            case "jvm2" -> "jvm/cpu-time/,jvm/alloc-bytes/";
            case "mixed8" -> "task-clock,page-faults,accel/sq_waves/,accel/sq_waves,se=2,sa=1/,accel/grbm_count/,"
                    + "accel/gl2c_hit/,jvm/cpu-time/,jvm/alloc-bytes/";
            default -> throw new IllegalArgumentException(mix);
        };
        counters = TaskCounters.open(system, spec);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        counters.close();
    }

    /** One task's worth of counter reading: begin + end. */
    @Benchmark
    public long beginEnd() {
        if (thread == null) {
            thread = counters.forCurrentThread();
        }
        thread.begin();
        thread.end(deltas);
        return deltas[0];
    }

}
