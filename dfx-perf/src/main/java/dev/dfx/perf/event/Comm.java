package dev.dfx.perf.event;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;

/**
 * A PERF_RECORD_COMM: {@code {u32 pid, tid; char comm[]}}; {@code exec} is {@code PERF_RECORD_MISC_COMM_EXEC}.
 *
 * @param pid  process id
 * @param tid  thread id
 * @param comm the new command name (at most 15 characters in the kernel)
 * @param exec whether the name changed because of an exec
 */
public record Comm(int pid, int tid, String comm, boolean exec) {
    /** @throws IllegalArgumentException when {@code r} is not a COMM record */
    public static Comm of(PerfRecord r) {
        RecordViews.require(r, RecordType.COMM);
        return new Comm(r.s32(8), r.s32(12), r.cString(16), (r.misc() & RecordText.MISC_13) != 0);
    }
}
