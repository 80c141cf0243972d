package dev.dfx.perf.data;

/** {@code perf_event_attr.branch_sample_type} bits ({@code enum perf_branch_sample_type}) and names. Stateless. */
public final class BranchSampleType {
    /** {@code PERF_SAMPLE_BRANCH_CALL_STACK}. */
    public static final long CALL_STACK = 1L << 11;
    /** {@code PERF_SAMPLE_BRANCH_HW_INDEX}: a u64 hw_idx precedes the branch entries of a sample. */
    public static final long HW_INDEX = 1L << 17;

    static final BitNames NAMES = new BitNames(
        new long[] {1L, 1L << 1, 1L << 2, 1L << 3, 1L << 4, 1L << 5, 1L << 6, 1L << 7, 1L << 8, 1L << 9, 1L << 10,
            1L << 11, 1L << 12, 1L << 13, 1L << 14, 1L << 15, 1L << 16, 1L << 17, 1L << 18},
        new String[] {"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL", "ABORT_TX", "IN_TX",
            "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX",
            "PRIV_SAVE"});

    private BranchSampleType() {
    }

    /** @return e.g. {@code "ANY|HW_INDEX"} */
    public static String names(long value) {
        return NAMES.format(value);
    }
}
