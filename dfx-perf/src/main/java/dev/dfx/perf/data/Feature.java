package dev.dfx.perf.data;

/**
 * perf.data header features ({@code tools/perf/util/header.h enum HEADER_*}): bit {@link #bit()} of the
 * 256-bit {@code adds_features} bitmap. Features appear in the feature table in ascending bit order.
 */
public enum Feature {
    TRACING_DATA(1), BUILD_ID(2), HOSTNAME(3), OSRELEASE(4), VERSION(5), ARCH(6), NRCPUS(7), CPUDESC(8), CPUID(9),
    TOTAL_MEM(10), CMDLINE(11), EVENT_DESC(12), CPU_TOPOLOGY(13), NUMA_TOPOLOGY(14), BRANCH_STACK(15),
    PMU_MAPPINGS(16), GROUP_DESC(17), AUXTRACE(18), STAT(19), CACHE(20), SAMPLE_TIME(21), MEM_TOPOLOGY(22),
    CLOCKID(23), DIR_FORMAT(24), BPF_PROG_INFO(25), BPF_BTF(26), COMPRESSED(27), CPU_PMU_CAPS(28), CLOCK_DATA(29),
    HYBRID_TOPOLOGY(30), PMU_CAPS(31);

    /** {@code HEADER_LAST_FEATURE} of perf 6.1: bits at or above it are unknown to perf 6.1. */
    public static final int LAST_6_1 = 32;

    private static final Feature[] BY_BIT = new Feature[LAST_6_1];

    static {
        for (Feature f : values()) {
            BY_BIT[f.bit] = f;
        }
    }

    private final int bit;

    Feature(int bit) {
        this.bit = bit;
    }

    /** @return the bit number in the feature bitmap */
    public int bit() {
        return bit;
    }

    /** @return the feature of bit {@code bit}, or {@code null} if perf 6.1 does not know it */
    public static Feature ofBit(int bit) {
        return bit > 0 && bit < BY_BIT.length ? BY_BIT[bit] : null;
    }
}
