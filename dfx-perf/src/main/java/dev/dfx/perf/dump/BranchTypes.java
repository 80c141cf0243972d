package dev.dfx.perf.dump;

/** Branch type and speculation names ({@code util/branch.c branch_type_name}, {@code branch_spec_desc}). Stateless. */
final class BranchTypes {
    private static final String[] TYPES = {"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
        "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI"};
    private static final String[] SPEC = {"N/A", "SPEC_WRONG_PATH", "NON_SPEC_CORRECT_PATH", "SPEC_CORRECT_PATH"};

    private BranchTypes() {
    }

    static String name(int type, int newType) {
        return type < TYPES.length ? TYPES[type] : "";
    }

    static String spec(int spec) {
        return spec == 0 ? "" : SPEC[spec];
    }
}
