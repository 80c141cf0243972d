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

    /**
     * A label without size inside a function: perf stretches it to the next symbol, so it overlaps the rest of the
     * function, and perf's lookup returns whichever of the two its tree's search meets first. Four symbols: A, the
     * function F [0x100, 0x200), its label L at 0x150 (stretched to G) and G at 0x300. Inserted A, L, F, G, the
     * tree is F(A, L(-, G)): the search meets F first. Inserted L, G, A, F, it is L(A(-, F), G): L first.
     */
    @Test
    void ofOverlappingSymbolsTheLookupReturnsTheOnePerfsTreeMeetsFirst() {
        SymbolTable functionFirst = new SymbolTable.Builder()
            .add(0x000, 0x010, SymbolTable.GLOBAL, "a", false)
            .add(0x150, 0x150, SymbolTable.GLOBAL, "label", false)
            .add(0x100, 0x200, SymbolTable.GLOBAL, "function", false)
            .add(0x300, 0x310, SymbolTable.GLOBAL, "g", false)
            .build(false);
        assertThat(functionFirst.find(0x160).name()).isEqualTo("function");
        assertThat(functionFirst.find(0x1ff).name()).isEqualTo("function");
        assertThat(functionFirst.find(0x200).name()).as("past the function: only the label holds it")
            .isEqualTo("label");
        assertThat(functionFirst.find(0x2ff).name()).isEqualTo("label");
        assertThat(functionFirst.find(0x310)).isNull();

        SymbolTable labelFirst = new SymbolTable.Builder()
            .add(0x150, 0x150, SymbolTable.GLOBAL, "label", false)
            .add(0x300, 0x310, SymbolTable.GLOBAL, "g", false)
            .add(0x000, 0x010, SymbolTable.GLOBAL, "a", false)
            .add(0x100, 0x200, SymbolTable.GLOBAL, "function", false)
            .build(false);
        assertThat(labelFirst.find(0x14f).name()).isEqualTo("function");
        assertThat(labelFirst.find(0x150).name()).isEqualTo("label");
        assertThat(labelFirst.find(0x1ff).name()).isEqualTo("label");
        assertThat(labelFirst.size()).isEqualTo(4);
    }

    /**
     * perf's PLT entries are inserted after the fix-ups, under {@code _init} stretched over {@code .plt}: the lookup
     * meets whichever the tree puts higher. {@code _init} at 0x1000 without size (stretched to {@code main}),
     * {@code main} at 0x1070, {@code _fini} at 0x2000 make the tree main(_init, _fini). One entry at 0x1030 hangs
     * right of {@code _init}, so the search meets {@code _init} first and the entry is never found. A second entry
     * at 0x1040 rotates the first above {@code _init}: main(one(_init, two), _fini).
     */
    @Test
    void pltEntriesAddedAfterTheFixUpsLieUnderTheStretchedInit() {
        SymbolTable one = withPlt(new SymbolTable.Builder()
            .add(0x1030, 0x1040, SymbolTable.GLOBAL, "one@plt", false));
        assertThat(one.find(0x1030).name()).isEqualTo("_init");
        assertThat(one.find(0x1045).name()).isEqualTo("_init");
        assertThat(one.find(0x1070).name()).isEqualTo("main");

        SymbolTable two = withPlt(new SymbolTable.Builder()
            .add(0x1030, 0x1040, SymbolTable.GLOBAL, "one@plt", false)
            .add(0x1040, 0x1050, SymbolTable.GLOBAL, "two@plt", false));
        assertThat(two.find(0x1030).name()).isEqualTo("one@plt");
        assertThat(two.find(0x1045).name()).isEqualTo("two@plt");
        assertThat(two.find(0x1020).name()).isEqualTo("_init");
        assertThat(two.find(0x1050)).as("_init holds it, but the search passes right of two@plt, below _init")
            .isNull();
        assertThat(two.size()).isEqualTo(5);
    }

    private static SymbolTable withPlt(SymbolTable.Builder plt) {
        return new SymbolTable.Builder()
            .add(0x1000, 0x1000, SymbolTable.GLOBAL, "_init", false)
            .add(0x1070, 0x1100, SymbolTable.GLOBAL, "main", false)
            .add(0x2000, 0x2010, SymbolTable.GLOBAL, "_fini", false)
            .build(false, plt);
    }
}
