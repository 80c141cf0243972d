package dev.dfx.perf.event;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;

/**
 * A PERF_RECORD_FORK or PERF_RECORD_EXIT: {@code {u32 pid, ppid, tid, ptid; u64 time}}.
 *
 * @param fork      whether this is a FORK (else an EXIT)
 * @param pid       process id
 * @param ppid      parent process id
 * @param tid       thread id
 * @param ptid      parent thread id
 * @param time      kernel timestamp in ns
 * @param synthetic whether perf synthesized it from /proc ({@code PERF_RECORD_MISC_FORK_EXEC}): perf then does
 *                  not copy the parent's maps
 */
public record Task(boolean fork, int pid, int ppid, int tid, int ptid, long time, boolean synthetic) {
    /** @throws IllegalArgumentException when {@code r} is neither FORK nor EXIT */
    public static Task of(PerfRecord r) {
        if (r.type() != RecordType.FORK && r.type() != RecordType.EXIT) {
            throw new IllegalArgumentException("not a FORK or EXIT record: " + r);
        }
        return new Task(r.type() == RecordType.FORK, r.s32(8), r.s32(12), r.s32(16), r.s32(20), r.u64(24),
            (r.misc() & RecordText.MISC_13) != 0);
    }
}
