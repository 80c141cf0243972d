package dev.dfx.perf.unwind;

import java.util.Arrays;

/**
 * One row of the call frame table: how to find the CFA and each tracked register of the caller (DWARF 5
 * §6.4.1). Columns 0..16 are the x86-64 registers rax..rip ({@link Dwarf}); {@link #CFA} holds the CFA rule: a
 * register ({@link Rule#REG}, its number in {@link #value}) plus the offset in column {@link #CFA_OFFSET}, or an
 * expression ({@link Rule#EXPR}, the address of its length-prefixed block). Mutable and copyable; not thread-safe.
 */
final class RegisterRules {
    /** Column of the CFA rule. */
    static final int CFA = Dwarf.REGS;
    /** Column of the CFA offset of a register CFA rule. */
    static final int CFA_OFFSET = Dwarf.REGS + 1;
    private static final int COLUMNS = Dwarf.REGS + 2;

    /** A register rule. */
    enum Rule {
        /** undefined: the register has no value in the caller ({@code DW_CFA_undefined}) */
        UNDEFINED,
        /** same value: unchanged ({@code DW_CFA_same_value}, the start state) */
        SAME,
        /** offset(N): saved at CFA+N ({@code DW_CFA_offset}) */
        OFFSET,
        /** register(R): held in register R ({@code DW_CFA_register}); for the CFA column: register R + offset */
        REG,
        /** expression(E): saved at the address E computes ({@code DW_CFA_expression}); CFA: the CFA is E's value */
        EXPR,
        /** val_expression(E): the value E computes ({@code DW_CFA_val_expression}) */
        VAL_EXPR
    }

    private final Rule[] rule = new Rule[COLUMNS];
    private final long[] value = new long[COLUMNS];

    /** A row with every column {@link Rule#SAME}, as a CIE's instructions start from. */
    RegisterRules() {
        Arrays.fill(rule, Rule.SAME);
    }

    /** @return a copy of {@code other} */
    static RegisterRules copyOf(RegisterRules other) {
        RegisterRules r = new RegisterRules();
        r.setAll(other);
        return r;
    }

    /** Makes this row equal to {@code other}. */
    void setAll(RegisterRules other) {
        System.arraycopy(other.rule, 0, rule, 0, COLUMNS);
        System.arraycopy(other.value, 0, value, 0, COLUMNS);
    }

    void set(int column, Rule r, long v) {
        rule[column] = r;
        value[column] = v;
    }

    /** Copies one column from {@code other} ({@code DW_CFA_restore}). */
    void restore(int column, RegisterRules other) {
        rule[column] = other.rule[column];
        value[column] = other.value[column];
    }

    /** @return the rule of a column */
    Rule rule(int column) {
        return rule[column];
    }

    /** @return the operand of a column's rule: an offset, a register number or an expression's address */
    long value(int column) {
        return value[column];
    }

    /**
     * @return the row as {@code readelf --debug-dump=frames-interp} writes a register column: {@code u}
     *         undefined, {@code s} same, {@code c+N}/{@code c-N} offset, {@code rN} register, {@code exp}
     *         expression, {@code vexp} value expression
     */
    String text(int column) {
        return switch (rule[column]) {
            case UNDEFINED -> "u";
            case SAME -> "s";
            case OFFSET -> value[column] < 0 ? "c" + value[column] : "c+" + value[column];
            case REG -> "r" + value[column];
            case EXPR -> "exp";
            case VAL_EXPR -> "vexp";
        };
    }
}
