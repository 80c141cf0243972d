package dev.dfx.bench.runtime;

import dev.dfx.runtime.RunResult;
import dev.dfx.runtime.RuntimeConfig;
import dev.dfx.runtime.TaskRuntime;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.workload.Workloads;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One whole run of a workload (default sizes) per operation, with the probe off ({@code Probe.NONE}) or
 * on but doing nothing ({@code noop}: every hook is called and every timestamp taken, nothing recorded).
 * The difference is the runtime's own cost of being observed; {@code none} is the baseline recording
 * overhead is measured against. Reports ms per run; asserts nothing.
 *
 * <pre>java -jar dfx-bench/target/benchmarks.jar RuntimeProbeBench -p workload=flood</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class RuntimeProbeBench {
    /** A probe whose lanes exist (so the runtime takes every timestamp and calls every hook) but do nothing. */
    static final Probe NOOP = new Probe() {
        @Override
        public CoreProbe core(int core) {
            return new CoreProbe() {
            };
        }

        @Override
        public SchedulerProbe scheduler(int scheduler) {
            return new SchedulerProbe() {
            };
        }

        @Override
        public OrchestratorProbe orchestrator() {
            return new OrchestratorProbe() {
            };
        }
    };

    @Param({"flood", "scoped", "gemm", "attention", "decoder"})
    public String workload;

    @Param({"none", "noop"})
    public String probe;

    /** @return the run's result (consumed by JMH) */
    @Benchmark
    public RunResult run() {
        return TaskRuntime.run(RuntimeConfig.defaults().withKeepGraph(false), probe.equals("none") ? Probe.NONE : NOOP,
                Workloads.create(workload));
    }
}
