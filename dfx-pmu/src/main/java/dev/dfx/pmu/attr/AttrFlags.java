package dev.dfx.pmu.attr;

/**
 * The one-bit fields of {@code struct perf_event_attr} (uapi {@code linux/perf_event.h}), packed into the 64-bit
 * word at {@link PerfEventAttr#FLAGS_OFFSET}, bit 0 = {@code disabled}. {@code precise_ip} is the one two-bit field
 * (bits 15-16). Stateless.
 */
public final class AttrFlags {
    /** Start disabled. */
    public static final long DISABLED = 1L;
    /** Children created later count too. */
    public static final long INHERIT = 1L << 1;
    /** Always on the PMU, or in error state. */
    public static final long PINNED = 1L << 2;
    /** The only group on the PMU. */
    public static final long EXCLUSIVE = 1L << 3;
    /** Do not count user space. */
    public static final long EXCLUDE_USER = 1L << 4;
    /** Do not count the kernel. */
    public static final long EXCLUDE_KERNEL = 1L << 5;
    /** Do not count the hypervisor. */
    public static final long EXCLUDE_HV = 1L << 6;
    /** Do not count when idle. */
    public static final long EXCLUDE_IDLE = 1L << 7;
    /** {@code sample_period} is a frequency. */
    public static final long FREQ = 1L << 10;
    /** Enable at the task's next exec. */
    public static final long ENABLE_ON_EXEC = 1L << 12;
    /** Shift of the two-bit {@code precise_ip} field (skid constraint 0..3). */
    public static final int PRECISE_IP_SHIFT = 15;
    /** The {@code precise_ip} field. */
    public static final long PRECISE_IP = 3L << PRECISE_IP_SHIFT;
    /** Non-SAMPLE records carry the sample_id trailer. */
    public static final long SAMPLE_ID_ALL = 1L << 18;
    /** Do not count in the host. */
    public static final long EXCLUDE_HOST = 1L << 19;
    /** Do not count in guests. */
    public static final long EXCLUDE_GUEST = 1L << 20;
    /** Every {@code exclude_*} bit that selects a privilege level or context. */
    public static final long EXCLUDE_ANY = EXCLUDE_USER | EXCLUDE_KERNEL | EXCLUDE_HV | EXCLUDE_IDLE | EXCLUDE_HOST
        | EXCLUDE_GUEST;

    /**
     * The field name of each bit, in bit order; {@code null} for bit 16, the upper bit of {@code precise_ip}.
     * Ends at {@code sigtrap} (bit 37), the last bit perf 6.1 knows.
     */
    private static final String[] NAMES = {"disabled", "inherit", "pinned", "exclusive", "exclude_user",
        "exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec",
        "task", "watermark", "precise_ip", null, "mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
        "exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch",
        "write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
        "inherit_thread", "remove_on_exec", "sigtrap"};

    /** The number of bits {@link #name(int)} knows. */
    public static final int KNOWN_BITS = NAMES.length;

    private AttrFlags() {
    }

    /** @return the field name of flag bit {@code bit} (0 .. {@link #KNOWN_BITS}-1), {@code null} for bit 16 */
    public static String name(int bit) {
        return NAMES[bit];
    }

    /** @return {@code precise_ip} = {@code level} (0..3; higher bits are dropped) as a flags value */
    public static long preciseIp(int level) {
        return ((long) level << PRECISE_IP_SHIFT) & PRECISE_IP;
    }
}
