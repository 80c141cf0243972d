package dev.dfx.perf.unwind;

import java.util.function.IntToLongFunction;

/**
 * Evaluates DWARF expressions of CFI rules (DWARF 5 §2.5) as libunwind does ({@code dwarf_eval_expr}): a stack of at
 * most 64 entries that starts with one value (the CFA for register rules, 0 for the CFA rule), the literal,
 * constant, register-based ({@code DW_OP_breg*}, {@code bregx}), stack, arithmetic, logical, comparison (signed)
 * and control-flow operations and {@code DW_OP_deref}/{@code deref_size}; {@code DW_OP_reg*}/{@code regx} end
 * the expression naming a register. Division and modulo by zero give 0. Operations libunwind does not evaluate
 * ({@code DW_OP_fbreg}, {@code piece}, {@code call*}, {@code xderef*}, {@code push_object_address}) and unknown
 * opcodes fail. A branch may go backwards, so at most {@value #MAX_OPS} operations run. Stateless.
 */
final class DwarfExpression {
    private static final int MAX_STACK = 64;
    /** Operations one evaluation may run before it is refused (real CFI expressions run a handful). */
    static final int MAX_OPS = 10_000;

    private DwarfExpression() {
    }

    /**
     * The result of an expression: a value, or (for {@code DW_OP_reg*}) a register.
     *
     * @param value    the value, or the register number
     * @param register whether {@code value} is a register number
     */
    record Result(long value, boolean register) {
    }

    /**
     * @param mem     memory, for the expression's bytes and {@code DW_OP_deref}
     * @param block   address of the expression's ULEB128 length
     * @param initial the value pushed first
     * @param regs    the value of a register (x86-64 DWARF number, 0..16) in the frame being unwound
     * @return the expression's value or register
     * @throws UnwindException on an unsupported operation, stack under- or overflow, unreadable memory
     */
    static Result evaluate(Memory mem, long block, long initial, IntToLongFunction regs) {
        CfiReader r = new CfiReader(mem, block);
        long len = r.uleb();
        long end = r.pos() + len;
        long[] stack = new long[MAX_STACK];
        int tos = 0;
        stack[tos++] = initial;
        CfiReader data = new CfiReader(mem, 0);
        for (int ops = 0; Long.compareUnsigned(r.pos(), end) < 0; ops++) {
            if (ops >= MAX_OPS) {
                throw UnwindException.failed("expression at 0x" + Long.toHexString(block) + " runs more than "
                    + MAX_OPS + " operations");
            }
            int op = r.u8();
            long a;
            long b;
            if (op >= 0x30 && op <= 0x4f) { // DW_OP_lit0..31
                tos = push(stack, tos, op - 0x30);
                continue;
            }
            if (op >= 0x50 && op <= 0x6f) { // DW_OP_reg0..31
                return new Result(regNumber(op - 0x50), true);
            }
            if (op >= 0x70 && op <= 0x8f) { // DW_OP_breg0..31
                long off = r.sleb();
                tos = push(stack, tos, regs.applyAsLong(regNumber(op - 0x70)) + off);
                continue;
            }
            switch (op) {
                case 0x03 -> tos = push(stack, tos, r.u64()); // addr
                case 0x08 -> tos = push(stack, tos, r.u8());
                case 0x09 -> tos = push(stack, tos, (byte) r.u8());
                case 0x0a -> tos = push(stack, tos, r.u16());
                case 0x0b -> tos = push(stack, tos, (short) r.u16());
                case 0x0c -> tos = push(stack, tos, r.u32());
                case 0x0d -> tos = push(stack, tos, r.s32());
                case 0x0e, 0x0f -> tos = push(stack, tos, r.u64());
                case 0x10 -> tos = push(stack, tos, r.uleb());
                case 0x11 -> tos = push(stack, tos, r.sleb());
                case 0x12 -> tos = push(stack, tos, pick(stack, tos, 0)); // dup
                case 0x13 -> tos = pop(tos); // drop
                case 0x14 -> tos = push(stack, tos, pick(stack, tos, 1)); // over
                case 0x15 -> tos = push(stack, tos, pick(stack, tos, r.u8())); // pick
                case 0x16 -> { // swap
                    pick(stack, tos, 1);
                    a = stack[tos - 1];
                    stack[tos - 1] = stack[tos - 2];
                    stack[tos - 2] = a;
                }
                case 0x17 -> { // rot: the top moves below the next two
                    pick(stack, tos, 2);
                    a = stack[tos - 1];
                    stack[tos - 1] = stack[tos - 2];
                    stack[tos - 2] = stack[tos - 3];
                    stack[tos - 3] = a;
                }
                case 0x06 -> { // deref
                    a = top(stack, tos);
                    data.seek(a);
                    stack[tos - 1] = data.u64();
                }
                case 0x94 -> { // deref_size
                    int size = r.u8();
                    a = top(stack, tos);
                    data.seek(a);
                    stack[tos - 1] = switch (size) {
                        case 1 -> data.u8();
                        case 2 -> data.u16();
                        case 3 -> data.u32() & 0xffffff;
                        case 4 -> data.u32();
                        case 5, 6, 7 -> data.u64() & (-1L << (8 * size)); // libunwind keeps the high bytes
                        case 8 -> data.u64();
                        default -> throw UnwindException.failed("DW_OP_deref_size " + size);
                    };
                }
                case 0x19 -> { // abs
                    a = top(stack, tos);
                    stack[tos - 1] = a < 0 ? -a : a;
                }
                case 0x1f -> stack[tos - 1] = -top(stack, tos); // neg
                case 0x20 -> stack[tos - 1] = ~top(stack, tos); // not
                case 0x23 -> stack[tos - 1] = top(stack, tos) + r.uleb(); // plus_uconst
                case 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27, 0x29, 0x2a, 0x2b, 0x2c, 0x2d,
                     0x2e -> {
                    pick(stack, tos, 1);
                    a = stack[--tos]; // the top
                    b = stack[tos - 1];
                    stack[tos - 1] = binary(op, b, a);
                }
                case 0x2f -> { // skip
                    int off = (short) r.u16();
                    r.seek(r.pos() + off);
                }
                case 0x28 -> { // bra
                    int off = (short) r.u16();
                    a = top(stack, tos);
                    tos--;
                    if (a != 0) {
                        r.seek(r.pos() + off);
                    }
                }
                case 0x90 -> { // regx
                    return new Result(regNumber(r.uleb()), true);
                }
                case 0x92 -> { // bregx
                    long reg = r.uleb();
                    long off = r.sleb();
                    tos = push(stack, tos, regs.applyAsLong(regNumber(reg)) + off);
                }
                case 0x96 -> {
                    // nop
                }
                default -> throw UnwindException.failed("DWARF operation 0x" + Integer.toHexString(op)
                    + " unsupported at 0x" + Long.toHexString(r.pos() - 1));
            }
        }
        return new Result(top(stack, tos), false);
    }

    /** libunwind maps DWARF numbers past rip to register 0. */
    private static int regNumber(long dwarf) {
        return dwarf >= 0 && dwarf < Dwarf.REGS ? (int) dwarf : 0;
    }

    private static long binary(int op, long b, long a) {
        return switch (op) {
            case 0x1a -> b & a;
            case 0x1b -> a == 0 ? 0 : b / a;
            case 0x1c -> b - a;
            case 0x1d -> a == 0 ? 0 : Long.remainderUnsigned(b, a);
            case 0x1e -> b * a;
            case 0x21 -> b | a;
            case 0x22 -> b + a;
            case 0x24 -> b << a;
            case 0x25 -> b >>> a;
            case 0x26 -> b >> a;
            case 0x27 -> b ^ a;
            case 0x29 -> b == a ? 1 : 0;
            case 0x2a -> b >= a ? 1 : 0;
            case 0x2b -> b > a ? 1 : 0;
            case 0x2c -> b <= a ? 1 : 0;
            case 0x2d -> b < a ? 1 : 0;
            default -> b != a ? 1 : 0; // 0x2e
        };
    }

    private static int push(long[] stack, int tos, long v) {
        if (tos >= MAX_STACK) {
            throw UnwindException.failed("expression stack overflow");
        }
        stack[tos] = v;
        return tos + 1;
    }

    private static int pop(int tos) {
        if (tos <= 0) {
            throw UnwindException.failed("expression stack underflow");
        }
        return tos - 1;
    }

    private static long top(long[] stack, int tos) {
        return pick(stack, tos, 0);
    }

    private static long pick(long[] stack, int tos, long n) {
        if (n < 0 || n >= tos) {
            throw UnwindException.failed("expression stack underflow");
        }
        return stack[tos - 1 - (int) n];
    }
}
