package dev.dfx.perf.unwind;

import java.util.ArrayDeque;

/**
 * Runs CIE and FDE instructions ({@code DW_CFA_*}, DWARF 5 §6.4.2) up to an address and leaves the row that
 * applies there, with libunwind's semantics ({@code run_cfi_program}): instructions run while the location is at
 * or below the target, so a row that starts at the target applies; register numbers from 17 on are refused
 * ({@code DW_CFA_offset} and friends only track rax..rip); {@code DW_CFA_val_offset}/{@code _sf} and other
 * opcodes libunwind does not know are skipped as one byte; {@code DW_CFA_GNU_window_save}, the user range
 * markers and {@code DW_CFA_MIPS_advance_loc8} are refused. Expressions are recorded by address and evaluated later
 * ({@link DwarfExpression}). Hostile input cannot loop: every instruction moves forward, and the remembered-state
 * stack is bounded. Stateless.
 */
final class CfiInterpreter {
    /** More nested DW_CFA_remember_state than this is refused. */
    private static final int MAX_REMEMBERED = 1024;
    /**
     * Instruction bytes one run may read (real FDEs hold a few hundred): a corrupt length inside a large mapping
     * whose bytes read as 0 would otherwise run one DW_CFA_nop per byte of it.
     */
    private static final long MAX_BYTES = 1 << 20;

    private CfiInterpreter() {
    }

    /**
     * @return the row of the CIE's initial instructions (its {@code initial} row for {@code DW_CFA_restore})
     */
    static RegisterRules initial(Memory mem, Cie cie) {
        RegisterRules rules = new RegisterRules();
        run(mem, cie, cie.instrStart(), cie.instrEnd(), 0, -1L, rules, rules);
        return rules;
    }

    /**
     * @param target the address whose row is wanted (already moved back one byte for a caller's frame)
     * @return the row at {@code target}: the CIE's row, then the FDE's instructions whose location is at or below
     *         {@code target}
     * @throws UnwindException on a malformed or unsupported instruction, or unreadable memory
     */
    static RegisterRules rowAt(Memory mem, Fde fde, long target) {
        RegisterRules initial = initial(mem, fde.cie());
        RegisterRules rules = RegisterRules.copyOf(initial);
        run(mem, fde.cie(), fde.instrStart(), fde.instrEnd(), fde.start(), target, rules, initial);
        return rules;
    }

    /**
     * Runs instructions in {@code [addr, end)} from location {@code loc} while the location is at or below
     * {@code target} (unsigned).
     *
     * @return the location reached
     */
    static long run(Memory mem, Cie cie, long addr, long end, long loc, long target, RegisterRules rules,
                    RegisterRules initial) {
        CfiReader r = new CfiReader(mem, addr);
        ArrayDeque<RegisterRules> remembered = new ArrayDeque<>();
        while (Long.compareUnsigned(loc, target) <= 0 && Long.compareUnsigned(r.pos(), end) < 0) {
            if (Long.compareUnsigned(r.pos() - addr, MAX_BYTES) > 0) {
                throw UnwindException.failed("CFA instructions at 0x" + Long.toHexString(addr) + " run past "
                    + MAX_BYTES + " bytes");
            }
            int op = r.u8();
            int operand = op & 0x3f;
            switch (op & 0xc0) {
                case 0x40 -> {
                    loc += operand * cie.codeAlign();
                    continue;
                }
                case 0x80 -> {
                    checkReg(operand);
                    rules.set(operand, RegisterRules.Rule.OFFSET, r.uleb() * cie.dataAlign());
                    continue;
                }
                case 0xc0 -> {
                    checkReg(operand);
                    rules.restore(operand, initial);
                    continue;
                }
                default -> {
                }
            }
            switch (op) {
                case 0x00 -> {
                }
                case 0x01 -> loc = r.encoded(cie.fdeEncoding(), 0);
                case 0x02 -> loc += r.u8() * cie.codeAlign();
                case 0x03 -> loc += r.u16() * cie.codeAlign();
                case 0x04 -> loc += r.u32() * cie.codeAlign();
                case 0x05 -> {
                    int reg = reg(r);
                    rules.set(reg, RegisterRules.Rule.OFFSET, r.uleb() * cie.dataAlign());
                }
                case 0x06 -> {
                    long reg = r.uleb();
                    checkReg(reg);
                    rules.restore((int) reg, initial);
                }
                case 0x07 -> rules.set(reg(r), RegisterRules.Rule.UNDEFINED, 0);
                case 0x08 -> rules.set(reg(r), RegisterRules.Rule.SAME, 0);
                case 0x09 -> {
                    int reg = reg(r);
                    rules.set(reg, RegisterRules.Rule.REG, r.uleb());
                }
                case 0x0a -> {
                    if (remembered.size() >= MAX_REMEMBERED) {
                        throw UnwindException.failed("more than " + MAX_REMEMBERED + " remembered states");
                    }
                    remembered.push(RegisterRules.copyOf(rules));
                }
                case 0x0b -> {
                    if (remembered.isEmpty()) {
                        throw UnwindException.failed("DW_CFA_restore_state without a remembered state at 0x"
                            + Long.toHexString(r.pos() - 1));
                    }
                    rules.setAll(remembered.pop());
                }
                case 0x0c -> {
                    int reg = reg(r);
                    rules.set(RegisterRules.CFA, RegisterRules.Rule.REG, reg);
                    rules.set(RegisterRules.CFA_OFFSET, RegisterRules.Rule.UNDEFINED, r.uleb());
                }
                case 0x0d -> rules.set(RegisterRules.CFA, RegisterRules.Rule.REG, reg(r));
                case 0x0e -> rules.set(RegisterRules.CFA_OFFSET, RegisterRules.Rule.UNDEFINED, r.uleb());
                case 0x0f -> {
                    rules.set(RegisterRules.CFA, RegisterRules.Rule.EXPR, r.pos());
                    skipBlock(r);
                }
                case 0x10, 0x16 -> {
                    int reg = reg(r);
                    rules.set(reg, op == 0x10 ? RegisterRules.Rule.EXPR : RegisterRules.Rule.VAL_EXPR, r.pos());
                    skipBlock(r);
                }
                case 0x11 -> {
                    int reg = reg(r);
                    rules.set(reg, RegisterRules.Rule.OFFSET, r.sleb() * cie.dataAlign());
                }
                case 0x12 -> {
                    int reg = reg(r);
                    rules.set(RegisterRules.CFA, RegisterRules.Rule.REG, reg);
                    rules.set(RegisterRules.CFA_OFFSET, RegisterRules.Rule.UNDEFINED, r.sleb() * cie.dataAlign());
                }
                case 0x13 -> rules.set(RegisterRules.CFA_OFFSET, RegisterRules.Rule.UNDEFINED,
                    r.sleb() * cie.dataAlign());
                case 0x2e -> r.uleb(); // DW_CFA_GNU_args_size: only for resuming, not for unwinding
                case 0x2f -> {
                    int reg = reg(r);
                    rules.set(reg, RegisterRules.Rule.OFFSET, -(r.uleb() * cie.dataAlign()));
                }
                case 0x1c, 0x1d, 0x2d, 0x3f -> throw UnwindException.failed("CFA opcode 0x"
                    + Integer.toHexString(op) + " unsupported on x86-64 at 0x" + Long.toHexString(r.pos() - 1));
                default -> {
                    // libunwind ignores opcodes it has no case for (DW_CFA_val_offset among them)
                }
            }
        }
        return loc;
    }

    private static int reg(CfiReader r) {
        long reg = r.uleb();
        checkReg(reg);
        return (int) reg;
    }

    private static void checkReg(long reg) {
        if (reg < 0 || reg >= Dwarf.REGS) {
            throw UnwindException.failed("register " + Long.toUnsignedString(reg) + " is not tracked on x86-64");
        }
    }

    /** Skips a length-prefixed expression block; a length that would move backwards is refused. */
    private static void skipBlock(CfiReader r) {
        long len = r.uleb();
        long next = r.pos() + len;
        if (Long.compareUnsigned(next, r.pos()) < 0) {
            throw UnwindException.failed("expression block of " + Long.toUnsignedString(len) + " bytes wraps");
        }
        r.seek(next);
    }
}
