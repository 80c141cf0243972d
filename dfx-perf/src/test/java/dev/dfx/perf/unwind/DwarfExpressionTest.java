package dev.dfx.perf.unwind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DWARF expressions on hand-assembled blocks with hand-computed results: the CFA expression GNU ld writes for a
 * PLT ({@code rsp + 8 + (((rip & 15) >= 11) << 3)}), register, memory and arithmetic operations, and hostile
 * blocks (a branch back to itself, stack underflow, an unknown operation) that must fail, not hang.
 */
class DwarfExpressionTest {
    /** Registers of the test frame: rax = 0x100 + n for DWARF register n, rsp 0x7000, rip as given. */
    private static long reg(int n, long rip) {
        return n == Dwarf.RIP ? rip : n == Dwarf.RSP ? 0x7000 : 0x100 + n;
    }

    private static DwarfExpression.Result eval(long rip, long initial, int... block) {
        byte[] bytes = new byte[64 + block.length + 8];
        bytes[0] = (byte) block.length; // ULEB128 length, < 128 here
        for (int i = 0; i < block.length; i++) {
            bytes[1 + i] = (byte) block[i];
        }
        // a word to dereference at address 0x30
        bytes[0x30] = 0x44;
        bytes[0x31] = 0x33;
        Memory mem = new FileMemory(MemorySegment.ofArray(bytes), 0, 0);
        return DwarfExpression.evaluate(mem, 0, initial, n -> reg(n, rip));
    }

    @ParameterizedTest(name = "PLT CFA at rip 0x{0}")
    @CsvSource({"1020, 7008", "1025, 7008", "102a, 7008", "102b, 7010", "102f, 7010", "1030, 7008"})
    void pltCfa(String rip, String cfa) {
        // DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_lit11; DW_OP_ge; DW_OP_lit3; DW_OP_shl;
        // DW_OP_plus
        DwarfExpression.Result r = eval(Long.parseLong(rip, 16), 0, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33,
            0x24, 0x22);
        assertThat(r.register()).isFalse();
        assertThat(r.value()).isEqualTo(Long.parseLong(cfa, 16));
    }

    @Test
    void registersMemoryAndArithmetic() {
        assertThat(eval(0, 0, 0x56)).isEqualTo(new DwarfExpression.Result(6, true)); // DW_OP_reg6
        assertThat(eval(0, 0, 0x90, 3)).isEqualTo(new DwarfExpression.Result(3, true)); // DW_OP_regx 3
        assertThat(eval(0, 0, 0x92, 3, 0x7c).value()).isEqualTo(0x103 - 4); // bregx 3, -4
        assertThat(eval(0, 0x1000, 0x23, 0x10).value()).isEqualTo(0x1010); // the initial value + uconst 16
        assertThat(eval(0, 0, 0x08, 0x30, 0x06).value()).isEqualTo(0x3344); // const1u 0x30; deref
        assertThat(eval(0, 0, 0x08, 0x30, 0x94, 1).value()).isEqualTo(0x44); // deref_size 1
        assertThat(eval(0, 0, 0x35, 0x32, 0x1c).value()).isEqualTo(3); // 5 - 2
        assertThat(eval(0, 0, 0x35, 0x30, 0x1b).value()).isZero(); // 5 / 0 is 0
        assertThat(eval(0, 0, 0x09, 0xfe, 0x19).value()).isEqualTo(2); // abs(-2)
        assertThat(eval(0, 0, 0x31, 0x32, 0x33, 0x17, 0x1c).value()).isEqualTo(-1); // rot: 1 2 3 -> 3 1 2; 1 - 2
    }

    @Test
    void hostileBlocksFail() {
        // DW_OP_skip -3: jumps back onto itself forever
        assertThatThrownBy(() -> eval(0, 0, 0x2f, 0xfd, 0xff)).isInstanceOf(UnwindException.class)
            .hasMessageContaining("operations");
        assertThatThrownBy(() -> eval(0, 0, 0x13, 0x13)).isInstanceOf(UnwindException.class)
            .hasMessageContaining("underflow");
        assertThatThrownBy(() -> eval(0, 0, 0x91, 0)).isInstanceOf(UnwindException.class)
            .hasMessageContaining("unsupported");
    }
}
