package dev.dfx.runtime.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.runtime.Kernel;
import dev.dfx.runtime.RunResult;
import dev.dfx.runtime.RuntimeConfig;
import dev.dfx.runtime.Scope;
import dev.dfx.runtime.ScopeMode;
import dev.dfx.runtime.TaskRuntime;
import dev.dfx.runtime.probe.Probe;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(120)
class WorkloadsTest {

    @ParameterizedTest
    @ValueSource(strings = {"flood", "scoped", "gemm", "attention", "decoder"})
    void defaultSizeRunsAndPassesItsCheck(String name) {
        RunResult r = RunWorkloads.runChecked(name, RuntimeConfig.defaults().withKeepGraph(false), Probe.NONE);
        assertThat(r.tasks()).isPositive();
        if (name.equals("flood")) {
            assertThat(r.tasks()).isEqualTo(65_536);
        }
    }

    /** Skips the kernel's {@code n}-th call: that task's outputs are never written (or not updated). */
    private static UnaryOperator<Kernel> skipCall(int n) {
        AtomicInteger calls = new AtomicInteger();
        return k -> a -> {
            if (calls.incrementAndGet() != n) {
                k.run(a);
            }
        };
    }

    static Stream<Arguments> brokenKernels() {
        return Stream.of(
                Arguments.of((Supplier<Workload>) () -> new Flood(300, 8), "axpb", 5, "flood: y["),
                Arguments.of((Supplier<Workload>) () -> new Scoped(3, 20, 8), "axpb", 5, "scoped: y"),
                Arguments.of((Supplier<Workload>) () -> new Scoped(3, 20, 8), "sum", 2, "scoped: sums["),
                Arguments.of((Supplier<Workload>) () -> new Gemm(32, 8), "gemm_tile", 5, "gemm: C["),
                Arguments.of((Supplier<Workload>) () -> new Attention(new int[] {70, 20}, 2, 8, 16, 2), "page_attn", 5,
                        "attention: query after step"),
                Arguments.of((Supplier<Workload>) () -> new Attention(new int[] {70, 20}, 2, 8, 16, 2), "reduce", 3,
                        "attention: query after step"),
                Arguments.of((Supplier<Workload>) () -> new Decoder(3, 2, 2, 16), "matvec", 5, "decoder: x["),
                Arguments.of((Supplier<Workload>) () -> new Decoder(3, 2, 2, 16), "residual", 2, "decoder: x["));
    }

    @ParameterizedTest(name = "{1} call {2}")
    @MethodSource("brokenKernels")
    void aKernelThatSkipsOneTaskIsCaughtByTheCheck(Supplier<Workload> make, String function, int call, String message) {
        Workload ok = make.get();
        TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, ok);
        ok.check();

        Workload broken = make.get().withKernel(function, skipCall(call));
        TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, broken);
        assertThatThrownBy(broken::check).isInstanceOf(WorkloadCheckException.class).hasMessageStartingWith(message)
                .hasMessageContaining("expected");
    }

    @Test
    void aGraphWithoutTheTensorEdgesIsCaughtByTheCheck() {
        // Inside a manual scope the tensor map is off, so the decoder's layers are no longer ordered; the
        // slow matvec makes the residual of layer 0 (on the other core) read y before the matvec wrote it.
        Decoder d = new Decoder(2, 1, 2, 8);
        d.withKernel("matvec", k -> a -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            k.run(a);
        });
        TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, orch -> {
            try (Scope s = orch.scope(ScopeMode.MANUAL)) {
                d.run(orch);
            }
        });
        assertThatThrownBy(d::check).isInstanceOf(WorkloadCheckException.class).hasMessageStartingWith("decoder: x[");
    }

    @Test
    void unknownWorkloadNamesTheKnownOnes() {
        assertThatThrownBy(() -> Workloads.create("gemv")).isInstanceOf(BadInputException.class)
                .hasMessage("unknown workload 'gemv' (-w); expected one of flood, scoped, gemm, attention, decoder");
    }

    @Test
    void runnerPrintsOneLinePerRunAndAMedian() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RunWorkloads.run(new String[] {"-w", "decoder", "--repeat", "2", "-S", "2", "-C", "1"},
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines[0]).isEqualTo("runtime: S=2 C=1 window=4096, 2 runs per workload, no recording");
        assertThat(lines).hasSize(5);
        assertThat(lines[2]).matches("decoder +1 +288 +[0-9.]+ +[0-9]+");
        assertThat(lines[4]).matches("decoder +med +288 +[0-9.]+ +[0-9]+ +\\(median, check ok\\)");
    }

    @Test
    void runnerRejectsBadOptionsWithOneLine() {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RunWorkloads.run(new String[] {"-S", "two"}, out))
                .isInstanceOf(BadInputException.class).hasMessage("option -S: 'two' is not an integer");
        assertThatThrownBy(() -> RunWorkloads.run(new String[] {"--threads", "2"}, out))
                .isInstanceOf(BadInputException.class)
                .hasMessage("unknown option --threads; expected -w, -S, -C, --window, --repeat");
        assertThatThrownBy(() -> RunWorkloads.run(new String[] {"-w", "flood,nope"}, out))
                .isInstanceOf(BadInputException.class).hasMessageStartingWith("unknown workload 'nope'");
        assertThatThrownBy(() -> RunWorkloads.run(new String[] {"-C", "0"}, out))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("cores must be 1..256, got 0");
    }
}
