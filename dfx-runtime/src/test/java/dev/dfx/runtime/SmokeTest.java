package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.runtime.probe.Probe;
import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void chainOfIncrements() {
        RunResult r = TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, o -> {
            Function inc = o.function("inc", a -> a.data(0)[a.offset(0)] += 1);
            Tensor x = o.tensor("x", 4);
            for (int i = 0; i < 1000; i++) {
                o.submit(inc, Args.of().inout(x.rows(i % 4, 1)));
            }
        });
        assertThat(r.tasks()).isEqualTo(1000);
        System.out.println(r.wallNanos() / 1e6 + " ms, edges " + r.graph().edges().size());
    }
}
