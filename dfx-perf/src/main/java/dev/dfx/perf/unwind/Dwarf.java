package dev.dfx.perf.unwind;

/**
 * DWARF constants of call frame information (DWARF 5 §6.4, LSB's {@code .eh_frame} pointer encodings) and the
 * x86-64 register numbering (System V psABI, table "DWARF Register Number Mapping"). Constants only.
 */
final class Dwarf {
    /** {@code DW_EH_PE_omit}: no value. */
    static final int PE_OMIT = 0xff;
    /** {@code DW_EH_PE_aligned}. */
    static final int PE_ALIGNED = 0x50;
    /** {@code DW_EH_PE_indirect}: the value is the address of the pointer. */
    static final int PE_INDIRECT = 0x80;

    /** x86-64 DWARF register numbers 0..15: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8..r15. */
    static final int RBP = 6;
    /** The stack pointer. */
    static final int RSP = 7;
    /** The return address column, standing for rip. */
    static final int RIP = 16;
    /** Registers the unwinder tracks, rax..rip (libunwind's {@code DWARF_NUM_PRESERVED_REGS}). */
    static final int REGS = 17;

    private Dwarf() {
    }
}
