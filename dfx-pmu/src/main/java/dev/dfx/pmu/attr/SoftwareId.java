package dev.dfx.pmu.attr;

/**
 * {@code perf_event_attr.config} of {@link PerfType#SOFTWARE} events (uapi {@code linux/perf_event.h enum
 * perf_sw_ids}). Stateless.
 */
public final class SoftwareId {
    public static final long CPU_CLOCK = 0;
    public static final long TASK_CLOCK = 1;
    public static final long PAGE_FAULTS = 2;
    public static final long CONTEXT_SWITCHES = 3;
    public static final long CPU_MIGRATIONS = 4;
    public static final long PAGE_FAULTS_MIN = 5;
    public static final long PAGE_FAULTS_MAJ = 6;
    public static final long ALIGNMENT_FAULTS = 7;
    public static final long EMULATION_FAULTS = 8;
    public static final long DUMMY = 9;
    public static final long BPF_OUTPUT = 10;
    public static final long CGROUP_SWITCHES = 11;

    private SoftwareId() {
    }
}
