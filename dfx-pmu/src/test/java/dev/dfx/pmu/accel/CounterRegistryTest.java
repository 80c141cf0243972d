package dev.dfx.pmu.accel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** perf-dkms test_counter_registry.c: 36 counters, GL2C 9, SQ 22, TA 3, GRBM 2, sq_waves = 30. */
class CounterRegistryTest {

    @Test
    void matchesTheReferenceRegistry() {
        assertThat(CounterRegistry.all()).hasSize(36);
        Map<Block, Long> perBlock = CounterRegistry.all().stream()
                .collect(Collectors.groupingBy(CounterDef::block, Collectors.counting()));
        assertThat(perBlock).containsEntry(Block.GL2C, 9L).containsEntry(Block.SQ, 22L)
                .containsEntry(Block.TA, 3L).containsEntry(Block.GRBM, 2L);
        assertThat(CounterRegistry.byName("sq_waves").id()).isEqualTo(30);
        assertThat(CounterRegistry.byName("gl2c_hit").id()).isEqualTo(8);
        assertThat(CounterRegistry.byName("sq_busy_cycles").id()).isEqualTo(13);
        assertThat(CounterRegistry.byName("grbm_count").id()).isEqualTo(35);
        assertThat(CounterRegistry.byId(0)).isNull();
        assertThat(CounterRegistry.byId(37)).isNull();
        assertThat(CounterRegistry.byName("SQ_WAVES")).isNull();
        Map<Integer, CounterDef> byId = CounterRegistry.all().stream().collect(Collectors.toMap(CounterDef::id, Function.identity()));
        for (int id = 1; id <= 36; id++) {
            assertThat(CounterRegistry.byId(id)).isSameAs(byId.get(id));
        }
    }

    @Test
    void scopesCoverGlobalPerSePerSaAndPerWgp() {
        assertThat(CounterRegistry.byName("grbm_count").scope()).isEqualTo(Scope.GLOBAL);
        assertThat(CounterRegistry.byName("sq_busy_cycles").scope()).isEqualTo(Scope.SE);
        assertThat(CounterRegistry.byName("gl2c_miss").scope()).isEqualTo(Scope.SA);
        assertThat(CounterRegistry.byName("ta_ta_busy").scope()).isEqualTo(Scope.WGP);
    }
}
