package dev.dfx.bench.perf;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: {@code dfx script} on a perf.data file, in-process, to a null stream (one op = the whole file).
 * The default file is the largest fixture ({@code irq-a.data}); pass {@code -p file=PATH} for another.
 * Numbers only. Run: {@code java -jar dfx-bench/target/benchmarks.jar ScriptBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ScriptBenchmark {
    /** The perf.data file; empty means the irq-a.data fixture. */
    @Param({""})
    public String file;

    private Path path;

    @Setup
    public void setUp() {
        path = file.isEmpty() ? BenchFiles.perf("irq-a.data") : Path.of(file);
    }

    /** Default fields (the tracepoint {@code trace} column for irq-a). */
    @Benchmark
    public long scriptDefault() {
        return ScriptThroughput.runOnce(path, List.of());
    }

    /** Read in processing order only, no text: the reader's share. */
    @Benchmark
    public long readOnly() {
        return ScriptThroughput.readOnce(path);
    }
}
