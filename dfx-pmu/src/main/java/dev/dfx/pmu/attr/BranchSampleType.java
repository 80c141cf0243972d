package dev.dfx.pmu.attr;

/** {@code perf_event_attr.branch_sample_type} bits ({@code enum perf_branch_sample_type}) dfx reads. Stateless. */
public final class BranchSampleType {
    /** {@code PERF_SAMPLE_BRANCH_CALL_STACK}. */
    public static final long CALL_STACK = 1L << 11;
    /** {@code PERF_SAMPLE_BRANCH_HW_INDEX}: a u64 hw_idx precedes the branch entries of a sample. */
    public static final long HW_INDEX = 1L << 17;

    private BranchSampleType() {
    }
}
