package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.runtime.RuntimeConfig;
import dev.dfx.runtime.probe.RuntimeShape;
import dev.dfx.runtime.subsystem.PipelineSettings;
import dev.dfx.runtime.subsystem.PoolSizes;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.runtime.subsystem.swimlane.SwimlaneRecorder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pools past a quarter of the machine are refused before any work, with the sizes; the defaults fit anywhere. */
class PoolBudgetTest {
    private static final long GIB = 1L << 30;
    private final RuntimeShape shape = new RuntimeShape(1, 2, RuntimeConfig.RINGS, 4096);

    private List<SubsystemRecorder> swimlane(PoolSizes pools) {
        PipelineSettings s = new PipelineSettings(pools, BackpressurePolicy.BLOCK, Duration.ofSeconds(30),
                Duration.ofNanos(100_000));
        return List.of(new SwimlaneRecorder(4, shape, s));
    }

    @Test
    void theReportedPoolsAreRefusedOnA23GibMachineNamingTheSizes() {
        PoolSizes pools = PoolSizes.parse(List.of("swimlane=500x100000"));
        // 2 core-task lanes x 500 x 100000 x 32 B = 3.2e9 B; sched-task 1.6e9; sched-phase 3.2e9 (64 B);
        // orch-phase 1.6e9: 9.6e9 B = 9155 MiB, over a quarter of 23 GiB (5888 MiB)
        assertThatThrownBy(() -> PoolBudget.check(swimlane(pools), pools, 23 * GIB))
                .isInstanceOf(BadInputException.class)
                .hasMessage("option --pool swimlane=500x100000: the pools need 9155 MiB, more than the 5888 MiB a recording"
                        + " may take (a quarter of this machine's 23552 MiB); swimlane.core-task alone takes 3051 MiB"
                        + " (2 lanes x 500 buffers x 100000 records x 32 B); use smaller pools");
        assertThatCode(() -> PoolBudget.check(swimlane(pools), pools, 64 * GIB)).doesNotThrowAnyException();
        assertThatCode(() -> PoolBudget.check(swimlane(pools), pools, 0)).as("unknown machine size")
                .doesNotThrowAnyException();
    }

    @Test
    void theDefaultPoolsFitAOneGibMachine() {
        PoolSizes defaults = PoolSizes.parse(List.of());
        assertThatCode(() -> PoolBudget.check(swimlane(defaults), defaults, GIB)).doesNotThrowAnyException();
    }
}
