package dev.dfx.perf.write;

/**
 * The scheduler tracepoint a writer-built file carries, with the raw-data layout of its format
 * ({@code sched_switch}: 64 bytes; Linux 6.18 {@code include/trace/events/sched.h} as exported by tracefs).
 * Stateless and thread-safe.
 */
public final class SchedTracepoints {
    /** {@code sched:sched_switch} (id 372). */
    public static final Tracepoint SWITCH = Tracepoint.resource("sched", "sched_switch");

    /** {@code TASK_COMM_LEN}: bytes of a {@code char comm[]} field. */
    private static final int COMM = 16;

    private SchedTracepoints() {
    }

    /**
     * The raw data of one {@code sched_switch}: common fields, then prev_comm[16], prev_pid, prev_prio,
     * prev_state (long), next_comm[16], next_pid, next_prio.
     *
     * @param prevState the kernel's state bits (0 = running, i.e. preempted, printed {@code R}; 1 = {@code S}, ...)
     * @return 64 bytes, little-endian
     */
    public static byte[] switchRaw(String prevComm, int prevPid, int prevPrio, long prevState, String nextComm,
                                   int nextPid, int nextPrio) {
        return common(SWITCH, prevPid).chars(prevComm, COMM).u32(prevPid).u32(prevPrio).u64(prevState)
            .chars(nextComm, COMM).u32(nextPid).u32(nextPrio).toArray();
    }

    /** common_type, common_flags, common_preempt_count, common_pid. */
    private static LeBytes common(Tracepoint tp, int pid) {
        return new LeBytes().u16(tp.id()).u8(0).u8(0).u32(pid);
    }
}
