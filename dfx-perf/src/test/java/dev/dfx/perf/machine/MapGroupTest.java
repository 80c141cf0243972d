package dev.dfx.perf.machine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Address-space maps: lookups, and overlap trimming as perf's {@code maps__fixup_overlappings} does it. */
class MapGroupTest {
    @Test
    void aNewMappingSplitsTheOneItOverlapsKeepingFileOffsets() {
        MapGroup g = new MapGroup();
        g.insert(new MemMap(0x1000, 0x9000, 0x100, "/lib/a.so", false));
        g.insert(new MemMap(0x3000, 0x5000, 0, "[heap]", true));
        // before: [0x1000,0x3000) pgoff 0x100; after: [0x5000,0x9000) pgoff 0x100 + (0x5000-0x1000)
        assertThat(g.all()).containsExactly(
            new MemMap(0x1000, 0x3000, 0x100, "/lib/a.so", false),
            new MemMap(0x3000, 0x5000, 0, "[heap]", true),
            new MemMap(0x5000, 0x9000, 0x4100, "/lib/a.so", false));
        assertThat(g.find(0x6000).mapIp(0x6000)).isEqualTo(0x5100);
        assertThat(g.find(0x2fff).dso()).isEqualTo("/lib/a.so");
        assertThat(g.find(0x9000)).isNull();
    }

    @Test
    void aMappingCoveringOthersReplacesThem() {
        MapGroup g = new MapGroup();
        g.insert(new MemMap(0x2000, 0x3000, 0, "x", false));
        g.insert(new MemMap(0x4000, 0x5000, 0, "y", false));
        g.insert(new MemMap(0x1000, 0x6000, 0, "z", false));
        assertThat(g.all()).containsExactly(new MemMap(0x1000, 0x6000, 0, "z", false));
    }

    @Test
    void kernelAddressesCompareUnsigned() {
        MapGroup g = new MapGroup();
        g.insert(new MemMap(0xffffffff81000000L, 0xffffffff82276f48L, 0xffffffff81000000L, "[kernel.kallsyms]",
            false));
        g.insert(new MemMap(0x400000, 0x500000, 0, "/bin/true", false));
        assertThat(g.find(0xffffffff82265ec8L).dso()).isEqualTo("[kernel.kallsyms]");
        assertThat(g.find(0xffffffff82265ec8L).mapIp(0xffffffff82265ec8L)).isEqualTo(0xffffffff82265ec8L);
        assertThat(g.find(0x400010).dso()).isEqualTo("/bin/true");
    }
}
