package dev.dfx.pmu.stat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pmu.linux.CpuTopology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Units and line prefixes of {@code -A}, {@code --per-core} and {@code --per-socket} on a hand-made topology of four
 * CPUs (cpu0 and cpu2 are the two threads of socket 0's core 0, cpu1 is core 1, cpu3 is socket 1's core 0), against
 * perf 6.1's {@code aggr_printout} formats ({@code CPU%-7d}, {@code S%d-D%d-C%-8d %4d}, {@code S%-5d %4d}, each
 * followed by the separator; in CSV without widths).
 */
class AggregationTest {
    private static final List<CpuTopology> CPUS = List.of(new CpuTopology(0, 0, 0, 0), new CpuTopology(1, 0, 0, 1),
        new CpuTopology(2, 0, 0, 0), new CpuTopology(3, 1, 0, 0));

    @Test
    void perCpuIsEveryCpuByNumber() {
        List<Aggregation.Unit> units = Aggregation.NO_AGGR.units(CPUS);
        assertThat(units).extracting(Aggregation.Unit::indexes)
            .containsExactly(List.of(0), List.of(1), List.of(2), List.of(3));
        assertThat(Aggregation.NO_AGGR.prefix(units.get(2), null)).isEqualTo("CPU2       ");
        assertThat(Aggregation.NO_AGGR.prefix(units.get(2), ",")).isEqualTo("CPU2,");
    }

    @Test
    void perCoreSumsTheThreadsOfACore() {
        List<Aggregation.Unit> units = Aggregation.PER_CORE.units(CPUS);
        assertThat(units).extracting(Aggregation.Unit::indexes)
            .containsExactly(List.of(0, 2), List.of(1), List.of(3));
        assertThat(Aggregation.PER_CORE.prefix(units.get(0), null)).isEqualTo("S0-D0-C0           2 ");
        assertThat(Aggregation.PER_CORE.prefix(units.get(2), null)).isEqualTo("S1-D0-C0           1 ");
        assertThat(Aggregation.PER_CORE.prefix(units.get(1), ";")).isEqualTo("S0-D0-C1;1;");
    }

    @Test
    void perSocketSumsItsCpus() {
        List<Aggregation.Unit> units = Aggregation.PER_SOCKET.units(CPUS);
        assertThat(units).extracting(Aggregation.Unit::indexes).containsExactly(List.of(0, 1, 2), List.of(3));
        assertThat(Aggregation.PER_SOCKET.prefix(units.get(0), null)).isEqualTo("S0        3 ");
        assertThat(Aggregation.PER_SOCKET.prefix(units.get(1), ",")).isEqualTo("S1,1,");
    }
}
