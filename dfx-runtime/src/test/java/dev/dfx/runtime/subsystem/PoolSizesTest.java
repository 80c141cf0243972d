package dev.dfx.runtime.subsystem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.pipeline.PoolSpec;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.record.ScopeRecord;
import dev.dfx.record.SubmitRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pool sizes: the defaults (dfx-runtime/README.md), overrides per subsystem and per kind, and the bridge to the pipeline's pools. */
class PoolSizesTest {
    @Test
    void defaultsAreTheDesignTable() {
        PoolSizes p = PoolSizes.defaults();
        assertThat(p.of(CoreTaskRecord.KIND)).isEqualTo(new PoolSize(8, 1000));
        assertThat(p.of(SchedPhaseRecord.KIND)).isEqualTo(new PoolSize(6, 16384));
        assertThat(p.of(OrchPhaseRecord.KIND)).isEqualTo(new PoolSize(8, 16384));
        assertThat(p.of(PmuRecord.KIND)).isEqualTo(new PoolSize(2, 512));
        assertThat(p.of(SubmitRecord.KIND)).isEqualTo(new PoolSize(4, 1024));
        assertThat(p.of(SchedTaskRecord.KIND)).isEqualTo(new PoolSize(8, 1000));
        assertThat(p.of(ArgRecord.KIND)).isEqualTo(new PoolSize(8, 256));
        assertThat(p.of(ScopeRecord.KIND)).isEqualTo(new PoolSize(4, 512));
        assertThat(p.spec(SubmitRecord.KIND)).isEqualTo(new PoolSpec("submit", 4672, 1024, 4));
        assertThat(p.origin(SubmitRecord.KIND)).isEqualTo("deps.submit");
    }

    @Test
    void aKindOverrideWinsOverItsSubsystemsWhateverTheOrder() {
        PoolSizes p = PoolSizes.parse(List.of("swimlane.core-task=3x5", "swimlane=2x10", "deps=1x4"));
        assertThat(p.of(CoreTaskRecord.KIND)).isEqualTo(new PoolSize(3, 5));
        assertThat(p.of(SchedPhaseRecord.KIND)).isEqualTo(new PoolSize(2, 10));
        assertThat(p.of(OrchPhaseRecord.KIND)).isEqualTo(new PoolSize(2, 10));
        assertThat(p.of(SubmitRecord.KIND)).isEqualTo(new PoolSize(1, 4));
        assertThat(p.of(PmuRecord.KIND)).isEqualTo(new PoolSize(2, 512));
        assertThat(p.origin(CoreTaskRecord.KIND)).isEqualTo("--pool swimlane.core-task=3x5");
        assertThat(p.origin(OrchPhaseRecord.KIND)).isEqualTo("--pool swimlane=2x10");
    }

    @Test
    void theSameKindTwiceIsRefusedRatherThanSilentlyReplaced() {
        assertThatThrownBy(() -> PoolSizes.parse(List.of("pmu=1x1", "pmu=4x8"))).isInstanceOf(BadInputException.class)
                .hasMessage("option --pool pmu=4x8: pmu is given twice (--pool pmu=1x1 too); give each KIND once");
    }

    @Test
    void impossiblePoolsNameTheOption() {
        assertThatThrownBy(() -> PoolSizes.parse(List.of("pmu=0x8"))).isInstanceOf(BadInputException.class)
                .hasMessage("option --pool pmu=0x8: COUNT (buffers per lane) must be 1..2147483647, got 0");
        assertThatThrownBy(() -> PoolSizes.parse(List.of("pmu=99999999999x8"))).isInstanceOf(BadInputException.class)
                .hasMessageContaining("COUNT (buffers per lane) must be 1..2147483647, got 99999999999");
        assertThatThrownBy(() -> PoolSizes.parse(List.of("pmu=2x"))).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith("option --pool pmu=2x: expected KIND=COUNTxRECORDS");
        assertThatThrownBy(() -> PoolSizes.parse(List.of("disk=2x4"))).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith("option --pool disk=2x4: unknown subsystem 'disk'");
    }
}
