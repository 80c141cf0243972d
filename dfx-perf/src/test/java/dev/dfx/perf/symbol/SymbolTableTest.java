package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** perf's symbol fix-ups ({@code symbols__fixup_end}, {@code symbols__fixup_duplicate}) on hand-made tables. */
class SymbolTableTest {
    @Test
    void aSymbolWithoutSizeEndsWhereTheNextStartsAndTheLastAtTheNextPageAfterItsOwn() {
        SymbolTable t = new SymbolTable.Builder()
            .add(0x2000, 0x2000, SymbolTable.GLOBAL, "b", false)
            .add(0x1000, 0x1000, SymbolTable.GLOBAL, "a", false)
            .add(0x1800, 0x1810, SymbolTable.GLOBAL, "sized", false)
            .build(false);
        assertThat(t.find(0x1000).name()).isEqualTo("a");
        assertThat(t.find(0x17ff).name()).isEqualTo("a");
        assertThat(t.find(0x1800).name()).isEqualTo("sized");
        assertThat(t.find(0x1810)).as("a sized symbol keeps its size: the gap after it has no symbol").isNull();
        assertThat(t.find(0x0fff)).isNull();
        // the last one: roundup(0x2000, 4096) + 4096 = 0x3000
        assertThat(t.find(0x2fff).name()).isEqualTo("b");
        assertThat(t.find(0x3000)).isNull();
        assertThat(t.start()).isEqualTo(0x1000);
        assertThat(t.end()).isEqualTo(0x3000);
    }

    @Test
    void ofSymbolsAtOneAddressPerfKeepsTheOneWithSizeThenNonWeakThenGlobalThenFewerUnderscoresThenLonger() {
        // kallsyms order: _stext, _text, srso_alias_untrain_ret at one address, then the next symbol.
        // After the end fix-up only the last of them has a size, so it wins, as perf prints it.
        SymbolTable k = new SymbolTable.Builder()
            .add(0x81000000L, 0x81000000L, SymbolTable.GLOBAL, "_stext", false)
            .add(0x81000000L, 0x81000000L, SymbolTable.GLOBAL, "_text", false)
            .add(0x81000000L, 0x81000000L, SymbolTable.GLOBAL, "srso_alias_untrain_ret", false)
            .add(0x81000010L, 0x81000010L, SymbolTable.GLOBAL, "next", false)
            .build(true);
        assertThat(k.find(0x81000004L).name()).isEqualTo("srso_alias_untrain_ret");
        assertThat(k.size()).isEqualTo(2);

        assertThat(pick(SymbolTable.WEAK, "strong", SymbolTable.GLOBAL, "weak_one")).isEqualTo("weak_one");
        assertThat(pick(SymbolTable.GLOBAL, "g", SymbolTable.WEAK, "w")).isEqualTo("g");
        assertThat(pick(SymbolTable.LOCAL, "local", SymbolTable.GLOBAL, "global")).isEqualTo("global");
        assertThat(pick(SymbolTable.GLOBAL, "__x", SymbolTable.GLOBAL, "_y")).isEqualTo("_y");
        assertThat(pick(SymbolTable.GLOBAL, "short", SymbolTable.GLOBAL, "longer")).isEqualTo("longer");
        assertThat(pick(SymbolTable.GLOBAL, "same", SymbolTable.GLOBAL, "sam2")).as("a tie keeps the first")
            .isEqualTo("same");
    }

    /** Two sized symbols at one address with the given bindings and names: the one perf keeps. */
    private static String pick(int bindingA, String a, int bindingB, String b) {
        SymbolTable t = new SymbolTable.Builder()
            .add(0x100, 0x110, bindingA, a, false)
            .add(0x100, 0x110, bindingB, b, false)
            .build(false);
        assertThat(t.size()).isEqualTo(1);
        return t.find(0x105).name();
    }

    @Test
    void kallsymsDoesNotStretchTheLastKernelSymbolOverTheModules() {
        SymbolTable t = new SymbolTable.Builder()
            .add(0xffffffff81000000L, 0xffffffff81000000L, SymbolTable.GLOBAL, "last_kernel", false)
            .add(0xffffffffc0000000L, 0xffffffffc0000000L, SymbolTable.LOCAL, "mod_fn", true)
            .build(true);
        // roundup(end + 4096, 4096) with end == start: one page
        assertThat(t.find(0xffffffff81000fffL).name()).isEqualTo("last_kernel");
        assertThat(t.find(0xffffffff81001000L)).isNull();
        assertThat(t.find(0xffffffffc0000fffL).name()).isEqualTo("mod_fn");
    }

    @Test
    void addressesAreUnsigned() {
        SymbolTable t = new SymbolTable.Builder()
            .add(0x10, 0x20, SymbolTable.GLOBAL, "low", false)
            .add(0xffffffff81000000L, 0xffffffff81000100L, SymbolTable.GLOBAL, "high", false)
            .build(false);
        assertThat(t.find(0xffffffff81000010L).name()).isEqualTo("high");
        assertThat(t.find(0x18).name()).isEqualTo("low");
        assertThat(t.find(-1L)).isNull();
        assertThat(SymbolTable.EMPTY.find(0)).isNull();
    }
}
