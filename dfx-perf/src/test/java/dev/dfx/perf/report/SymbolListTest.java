package dev.dfx.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** perf's split of a {@code -S} list: what C's {@code strtoul(s, &end, 16)} reads whole is an address. */
class SymbolListTest {
    @Test
    void entriesThatStrtoulReadsWholeAreAddresses() {
        assertThat(SymbolList.address("0xffffffff82265ec8")).isEqualTo(0xffffffff82265ec8L);
        assertThat(SymbolList.address("0X1F")).isEqualTo(0x1fL);
        assertThat(SymbolList.address(" 7f807ec27350 ")).isEqualTo(0x7f807ec27350L);
        assertThat(SymbolList.address("add")).as("a name of hex letters").isEqualTo(0xaddL);
        assertThat(SymbolList.address("-1")).isEqualTo(-1L);
        assertThat(SymbolList.address("ffffffffffffffff")).isEqualTo(-1L);
    }

    @Test
    void otherEntriesAreNames() {
        for (String name : List.of("leaf_work", "0x", "0xg", "12z", "", " ", "10000000000000000", "0x1 2")) {
            assertThat(SymbolList.address(name)).as("[" + name + "]").isNull();
        }
    }

    @Test
    void onlyTheNamesAreLeftForTheElision() {
        SymbolList l = SymbolList.of(new LinkedHashSet<>(List.of("leaf_work", "0x10", "main")));
        assertThat(l.names()).containsExactly("leaf_work", "main");
        assertThat(l.addresses()).isEqualTo(Set.of(0x10L));
        assertThat(SymbolList.of(null)).isNull();
    }
}
