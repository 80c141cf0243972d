package dev.dfx.perf.event;

import dev.dfx.perf.read.PerfRecord;

/**
 * The decoded fields of one record, as perf's {@code struct perf_sample}: for PERF_RECORD_SAMPLE every
 * field selected by the event's {@code sample_type}; for other kernel records the {@code sample_id} trailer
 * (pid, tid, time, id, stream id, cpu) when {@code sample_id_all} is set. Absent fields keep perf's
 * defaults: pid, tid and cpu -1, time and id -1 (as unsigned u64, i.e. {@code ~0}), period the attr's
 * {@code sample_period}.
 *
 * <p>Variable-length parts (callchain, raw data, branch stack, registers, user stack, AUX data) are kept
 * as offsets into the record ({@link #record()}) to avoid copying. Filled by {@link SampleParser}; mutable
 * only there. Not thread-safe.
 */
public final class Sample {
    long ip;
    int pid = -1;
    int tid = -1;
    long time = -1;
    long addr;
    long id = -1;
    long streamId = -1;
    int cpu = -1;
    long period;
    ReadValues read;
    int callchainOffset = -1;
    int callchainNr;
    int rawOffset = -1;
    int rawSize;
    int cpumode;
    int misc;
    PerfRecord record;
    /** The fields after RAW, or {@code null} when the event samples none of them. */
    Extra extra;

    /**
     * The fields that follow RAW in a sample (branch stack, registers, user stack, weight, data source, transaction,
     * physical address, cgroup, page sizes, AUX data): few events sample them, so a common sample does not carry
     * their room (the reordering queue holds many samples at once).
     */
    static final class Extra {
        int branchOffset = -1;
        int branchNr;
        long branchHwIdx = -1;
        long regsUserAbi;
        long regsUserMask;
        int regsUserOffset = -1;
        int stackUserOffset = -1;
        long stackUserSize;
        long stackUserDynSize;
        long weight;
        int insLat;
        int retireLat;
        long dataSrc;
        long transaction;
        long regsIntrAbi;
        long regsIntrMask;
        int regsIntrOffset = -1;
        long physAddr;
        long cgroup;
        long dataPageSize;
        long codePageSize;
        int auxOffset = -1;
        long auxSize;
    }

    /** @return the fields after RAW, made on first use */
    Extra extra() {
        if (extra == null) {
            extra = new Extra();
        }
        return extra;
    }

    /** @return the record these fields were read from */
    public PerfRecord record() {
        return record;
    }

    /** @return instruction pointer (PERF_SAMPLE_IP) */
    public long ip() {
        return ip;
    }

    /** @return process id, or -1 */
    public int pid() {
        return pid;
    }

    /** @return thread id, or -1 */
    public int tid() {
        return tid;
    }

    /** @return timestamp in ns (perf_clock), or -1 ({@code ~0}) when absent */
    public long time() {
        return time;
    }

    /** @return PERF_SAMPLE_ADDR (data address of a fault or access) */
    public long addr() {
        return addr;
    }

    /** @return the sample id (ID or IDENTIFIER), or -1 */
    public long id() {
        return id;
    }

    /** @return PERF_SAMPLE_STREAM_ID, or -1 */
    public long streamId() {
        return streamId;
    }

    /** @return the cpu, or -1 ({@code (u32)-1}) when absent */
    public int cpu() {
        return cpu;
    }

    /** @return the period: PERF_SAMPLE_PERIOD, else the attr's fixed {@code sample_period} */
    public long period() {
        return period;
    }

    /** Sets the period (perf sets it per group member when it delivers a grouped PERF_SAMPLE_READ sample). */
    public void setPeriod(long period) {
        this.period = period;
    }

    /** Sets the sample id (perf sets it per group member when it delivers a grouped PERF_SAMPLE_READ sample). */
    public void setId(long id) {
        this.id = id;
    }

    /** @return the read values, or {@code null} without PERF_SAMPLE_READ */
    public ReadValues read() {
        return read;
    }

    /** @return number of callchain entries (context markers included), 0 without PERF_SAMPLE_CALLCHAIN */
    public int callchainNr() {
        return callchainNr;
    }

    /** @return whether the sample has a callchain field (possibly empty) */
    public boolean hasCallchain() {
        return callchainOffset >= 0;
    }

    /** @return callchain entry {@code i} (0 = innermost), context markers such as {@code PERF_CONTEXT_KERNEL} included */
    public long callchain(int i) {
        return record.u64(callchainOffset + 8 * i);
    }

    /** @return bytes of PERF_SAMPLE_RAW data, 0 without it */
    public int rawSize() {
        return rawSize;
    }

    /** @return offset of the raw data within the record, or -1 */
    public int rawOffset() {
        return rawOffset;
    }

    /** @return number of branch entries, 0 without PERF_SAMPLE_BRANCH_STACK */
    public int branchNr() {
        return extra == null ? 0 : extra.branchNr;
    }

    /** @return offset of the first 24-byte branch entry {from, to, flags} within the record, or -1 */
    public int branchOffset() {
        return extra == null ? -1 : extra.branchOffset;
    }

    /** @return the branch stack's hw_idx, or -1 when not recorded */
    public long branchHwIdx() {
        return extra == null ? -1 : extra.branchHwIdx;
    }

    /** @return REGS_USER abi (0: no registers follow) */
    public long regsUserAbi() {
        return extra == null ? 0 : extra.regsUserAbi;
    }

    /** @return REGS_USER register mask ({@code attr.sample_regs_user}) */
    public long regsUserMask() {
        return extra == null ? 0 : extra.regsUserMask;
    }

    /** @return offset of the first REGS_USER register value, or -1 */
    public int regsUserOffset() {
        return extra == null ? -1 : extra.regsUserOffset;
    }

    /** @return REGS_INTR abi */
    public long regsIntrAbi() {
        return extra == null ? 0 : extra.regsIntrAbi;
    }

    /** @return REGS_INTR register mask */
    public long regsIntrMask() {
        return extra == null ? 0 : extra.regsIntrMask;
    }

    /** @return offset of the first REGS_INTR register value, or -1 */
    public int regsIntrOffset() {
        return extra == null ? -1 : extra.regsIntrOffset;
    }

    /** @return offset of the STACK_USER size field within the record, or -1 */
    public int stackUserOffset() {
        return extra == null ? -1 : extra.stackUserOffset;
    }

    /** @return bytes of user stack stored ({@code size}) */
    public long stackUserSize() {
        return extra == null ? 0 : extra.stackUserSize;
    }

    /** @return the stack's dynamic size ({@code dyn_size}): bytes that were valid */
    public long stackUserDynSize() {
        return extra == null ? 0 : extra.stackUserDynSize;
    }

    /** @return PERF_SAMPLE_WEIGHT, or the low 32 bits of WEIGHT_STRUCT */
    public long weight() {
        return extra == null ? 0 : extra.weight;
    }

    /** @return instruction latency (WEIGHT_STRUCT bits 32-47) */
    public int insLat() {
        return extra == null ? 0 : extra.insLat;
    }

    /** @return pipeline stage cycles / retire latency (WEIGHT_STRUCT bits 48-63) */
    public int retireLat() {
        return extra == null ? 0 : extra.retireLat;
    }

    /** @return PERF_SAMPLE_DATA_SRC */
    public long dataSrc() {
        return extra == null ? 0 : extra.dataSrc;
    }

    /** @return PERF_SAMPLE_TRANSACTION */
    public long transaction() {
        return extra == null ? 0 : extra.transaction;
    }

    /** @return PERF_SAMPLE_PHYS_ADDR */
    public long physAddr() {
        return extra == null ? 0 : extra.physAddr;
    }

    /** @return PERF_SAMPLE_CGROUP id */
    public long cgroup() {
        return extra == null ? 0 : extra.cgroup;
    }

    /** @return PERF_SAMPLE_DATA_PAGE_SIZE in bytes */
    public long dataPageSize() {
        return extra == null ? 0 : extra.dataPageSize;
    }

    /** @return PERF_SAMPLE_CODE_PAGE_SIZE in bytes */
    public long codePageSize() {
        return extra == null ? 0 : extra.codePageSize;
    }

    /** @return offset of the AUX sample data within the record, or -1 */
    public int auxOffset() {
        return extra == null ? -1 : extra.auxOffset;
    }

    /** @return bytes of AUX sample data */
    public long auxSize() {
        return extra == null ? 0 : extra.auxSize;
    }

    /** @return {@code header.misc & 7}: 1 kernel, 2 user, 3 hypervisor, 4 guest kernel, 5 guest user */
    public int cpumode() {
        return cpumode;
    }

    /** @return {@code header.misc} */
    public int misc() {
        return misc;
    }
}
