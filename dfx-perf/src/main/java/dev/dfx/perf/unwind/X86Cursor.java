package dev.dfx.perf.unwind;

import java.util.Arrays;

/**
 * One walk up a sampled x86-64 user stack with libunwind 1.6's semantics (the unwinder Debian's perf 6.1 is built
 * with: {@code unw_init_remote}, {@code unw_step} of {@code src/x86_64/Gstep.c}, {@code dwarf_step} of
 * {@code src/dwarf/Gparser.c}), read to be matched, not copied.
 *
 * <p>State: the frame's ip and CFA (the caller's stack pointer; reading rsp gives the CFA) and, per register
 * rax..rip, where its value is: in a sampled register, in memory, a known value, or nowhere (a null location; a
 * memory location at address 0 counts as null, as in libunwind). A step finds the FDE of the ip (less one byte for a
 * caller frame, not after a signal frame), runs the CIE's and FDE's instructions up to it, computes the CFA and the
 * new locations (a register rule reads the locations already updated in this step, in register order), and reads
 * the return address. Without an FDE for the ip (and only then) it falls back as libunwind does: a PLT stub, the
 * frame-pointer chain with libunwind's checks, or the end.
 *
 * <p>Not thread-safe: one cursor per sample.
 */
final class X86Cursor {
    private static final byte NULL = 0;
    private static final byte REG = 1;
    private static final byte MEM = 2;
    private static final byte VAL = 3;

    private final SampleMemory mem;
    private final UserRegisters regs;
    private final RowCache rows;
    private final byte[] kind = new byte[Dwarf.REGS];
    private final long[] where = new long[Dwarf.REGS];
    private long ip;
    private long cfa;
    private boolean usePrevInstr;
    private boolean signalFrame;

    private X86Cursor(SampleMemory mem, UserRegisters regs, RowCache rows) {
        this.mem = mem;
        this.regs = regs;
        this.rows = rows;
    }

    /**
     * {@code unw_init_remote}: every register in its sampled register.
     *
     * @param rows the rows of the process computed so far
     * @throws UnwindException when rip or rsp was not sampled
     */
    static X86Cursor start(SampleMemory mem, UserRegisters regs, RowCache rows) {
        X86Cursor c = new X86Cursor(mem, regs, rows);
        for (int i = 0; i < Dwarf.REGS; i++) {
            c.kind[i] = REG;
            c.where[i] = i;
        }
        c.ip = regs.get(Dwarf.RIP);
        c.cfa = regs.get(Dwarf.RSP);
        return c;
    }

    /** @return the frame's ip */
    long ip() {
        return ip;
    }

    /** @return whether the frame just left was a signal frame (its caller's ip is not a return address) */
    boolean signalFrame() {
        return signalFrame;
    }

    /**
     * {@code unw_step}: moves to the caller.
     *
     * @return 1 when there is a caller frame, 0 at the end of the chain, -1 when the step failed
     */
    int step() {
        signalFrame = false;
        try {
            int ret = dwarfStep();
            if (isNull(Dwarf.RBP)) {
                // the x86-64 ABI ends the chain where rbp is undefined
                ip = 0;
                return 0;
            }
            return ret;
        } catch (UnwindException e) {
            if (e.kind() != UnwindException.Kind.NO_INFO) {
                return -1;
            }
        }
        try {
            return fallback();
        } catch (UnwindException e) {
            return -1;
        }
    }

    /** {@code dwarf_step}: find the row, apply it. */
    private int dwarfStep() {
        long lookup = usePrevInstr ? ip - 1 : ip;
        RowCache.Row r = rows.row(mem, lookup);
        if (r.fde() == null) {
            throw r.failure() == UnwindException.Kind.NO_INFO ? UnwindException.noInfo("no FDE")
                : UnwindException.failed("no row");
        }
        Cie cie = r.fde().cie();
        signalFrame = cie.signalFrame();
        usePrevInstr = !cie.signalFrame();
        return apply(r.row(), cie.raColumn());
    }

    /** {@code apply_reg_state}: @return 0 where the return address is undefined (ip 0), else 1 */
    private int apply(RegisterRules row, long ra) {
        if (ra < 0 || ra >= Dwarf.REGS) {
            throw UnwindException.failed("return address column " + ra);
        }
        long prevIp = ip;
        long prevCfa = cfa;
        long newCfa;
        switch (row.rule(RegisterRules.CFA)) {
            case REG -> {
                int reg = (int) row.value(RegisterRules.CFA);
                newCfa = (reg == Dwarf.RSP && row.rule(Dwarf.RSP) == RegisterRules.Rule.SAME ? cfa : reg(reg))
                    + row.value(RegisterRules.CFA_OFFSET);
            }
            case EXPR -> {
                DwarfExpression.Result r = DwarfExpression.evaluate(mem, row.value(RegisterRules.CFA), 0, this::reg);
                if (r.register()) {
                    throw UnwindException.failed("CFA expression names a register");
                }
                newCfa = r.value();
            }
            default -> throw UnwindException.failed("no CFA rule");
        }
        byte[] k = Arrays.copyOf(kind, Dwarf.REGS);
        long[] w = Arrays.copyOf(where, Dwarf.REGS);
        for (int i = 0; i < Dwarf.REGS; i++) {
            long v = row.value(i);
            switch (row.rule(i)) {
                case UNDEFINED -> k[i] = NULL;
                case SAME -> {
                }
                case OFFSET -> mem(k, w, i, newCfa + v);
                case REG -> {
                    if (v < 0 || v >= Dwarf.REGS) {
                        throw UnwindException.failed("register rule names register " + Long.toUnsignedString(v));
                    }
                    k[i] = k[(int) v];
                    w[i] = w[(int) v];
                }
                case EXPR, VAL_EXPR -> {
                    DwarfExpression.Result r = DwarfExpression.evaluate(mem, v, newCfa, this::reg);
                    if (row.rule(i) == RegisterRules.Rule.VAL_EXPR) {
                        k[i] = VAL;
                        w[i] = r.value();
                    } else if (r.register()) {
                        k[i] = REG;
                        w[i] = r.value();
                    } else {
                        mem(k, w, i, r.value());
                    }
                }
            }
        }
        System.arraycopy(k, 0, kind, 0, Dwarf.REGS);
        System.arraycopy(w, 0, where, 0, Dwarf.REGS);
        cfa = newCfa;
        int col = (int) ra;
        ip = isNull(col) ? 0 : get(col);
        if (ip == prevIp && cfa == prevCfa) {
            throw UnwindException.failed("ip and cfa unchanged at 0x" + Long.toHexString(ip));
        }
        return isNull(col) ? 0 : 1;
    }

    /**
     * The fallback of {@code unw_step} where no FDE covers the ip: a PLT stub, else the frame-pointer chain.
     *
     * @return as {@link #step()}; libunwind's status of its last memory read decides some outcomes, so it is kept
     */
    private int fallback() {
        long prevIp = ip;
        long prevCfa = cfa;
        boolean invalidPrevRip = false;
        int ret = -1; // libunwind's -UNW_ENOINFO from the failed DWARF step
        if (isPltEntry()) {
            setMem(Dwarf.RIP, cfa);
            cfa += 8;
        } else if (isNull(Dwarf.RBP)) {
            Arrays.fill(kind, NULL);
        } else {
            ret = kind[Dwarf.RBP] == MEM ? mem.status(where[Dwarf.RBP]) : 0; // dwarf_get's status: 0, 1 or -1
            long rbp = get(Dwarf.RBP);
            invalidPrevRip = prevIp == 0 || mem.status(prevIp) != Memory.READ;
            byte rbpKind = NULL;
            long rbpAt = 0;
            byte rspKind = NULL;
            long rspAt = 0;
            byte ripKind = NULL;
            long ripAt = 0;
            if (rbp != 0 || invalidPrevRip) {
                boolean fixed = false;
                if (invalidPrevRip) {
                    // a call through a bad pointer: the return address is still at the stack pointer
                    long rsp = tryGet(Dwarf.RSP);
                    if (rsp != 0 && mem.status(rsp) == Memory.READ) {
                        long newIp = mem.word(rsp);
                        ret = newIp == 0 ? -1 : mem.status(newIp);
                        if (ret == 0) {
                            fixed = true;
                            cfa += 8;
                            rbpKind = memKind(rbp);
                            rbpAt = rbp;
                            rspKind = memKind(rsp);
                            rspAt = rsp;
                            ripKind = memKind(rsp);
                            ripAt = rsp;
                        }
                    }
                }
                if (!fixed) {
                    rbpKind = memKind(rbp);
                    rbpAt = rbp;
                    ripKind = memKind(rbp + 8);
                    ripAt = rbp + 8;
                    ret = rbp == 0 ? -1 : mem.status(rbp);
                    if (ret < 0 || Long.compareUnsigned(rbp, cfa) < 0 || Long.compareUnsigned(rbp - cfa, 0x4000) > 0) {
                        ripKind = NULL;
                        rbpKind = NULL;
                    }
                    cfa += 16;
                }
            }
            Arrays.fill(kind, NULL);
            kind[Dwarf.RBP] = rbpKind;
            where[Dwarf.RBP] = rbpAt;
            kind[Dwarf.RSP] = rspKind;
            where[Dwarf.RSP] = rspAt;
            kind[Dwarf.RIP] = ripKind;
            where[Dwarf.RIP] = ripAt;
            usePrevInstr = true;
        }
        if (isNull(Dwarf.RBP) && !invalidPrevRip) {
            return 0;
        }
        if (!isNull(Dwarf.RIP)) {
            ip = get(Dwarf.RIP);
            ret = 1;
        } else {
            ip = 0;
        }
        if (ip == prevIp && cfa == prevCfa) {
            return -1;
        }
        return ret;
    }

    /** {@code is_plt_entry}: {@code jmp *x(%rip); push $n; jmp ...} at the ip. */
    private boolean isPltEntry() {
        if (mem.status(ip) == Memory.FAULT || mem.status(ip + 8) == Memory.FAULT) {
            return false;
        }
        long w0 = mem.word(ip);
        long w1 = mem.word(ip + 8);
        return (w0 & 0xffff) == 0x25ff && ((w0 >>> 48) & 0xff) == 0x68 && ((w1 >>> 24) & 0xff) == 0xe9;
    }

    /** {@code unw_get_reg}: rip is the ip, rsp the CFA, others through their location. */
    private long reg(int r) {
        if (r == Dwarf.RIP) {
            return ip;
        }
        if (r == Dwarf.RSP) {
            return cfa;
        }
        return get(r);
    }

    /** {@code dwarf_get}: the value at a register's location. */
    private long get(int r) {
        long w = where[r];
        return switch (kind[r]) {
            case REG -> regs.get((int) w);
            case MEM -> mem.word(w);
            case VAL -> w;
            default -> throw UnwindException.failed("register " + r + " has no location");
        };
    }

    /** {@link #get}, or 0 where libunwind's read would fail and leave its variable unset. */
    private long tryGet(int r) {
        try {
            return get(r);
        } catch (UnwindException e) {
            return 0;
        }
    }

    private boolean isNull(int r) {
        return kind[r] == NULL;
    }

    private void setMem(int r, long addr) {
        kind[r] = memKind(addr);
        where[r] = addr;
    }

    private static void mem(byte[] k, long[] w, int i, long addr) {
        k[i] = memKind(addr);
        w[i] = addr;
    }

    /** A memory location at address 0 is libunwind's null location. */
    private static byte memKind(long addr) {
        return addr == 0 ? NULL : MEM;
    }
}
