package dev.dfx.perf.event;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;

/**
 * A PERF_RECORD_SWITCH or PERF_RECORD_SWITCH_CPU_WIDE (the latter with {@code {u32 next_prev_pid,
 * next_prev_tid}}).
 *
 * @param out         whether the task was switched out (else in)
 * @param preempt     whether it was preempted while runnable ({@code SWITCH_OUT_PREEMPT})
 * @param cpuWide     whether this is SWITCH_CPU_WIDE
 * @param nextPrevPid the other task's pid (cpu-wide only, else -1)
 * @param nextPrevTid the other task's tid (cpu-wide only, else -1)
 */
public record ContextSwitch(boolean out, boolean preempt, boolean cpuWide, int nextPrevPid, int nextPrevTid) {
    /** @throws IllegalArgumentException when {@code r} is not a switch record */
    public static ContextSwitch of(PerfRecord r) {
        boolean wide = r.type() == RecordType.SWITCH_CPU_WIDE;
        if (!wide) {
            RecordViews.require(r, RecordType.SWITCH);
        }
        return new ContextSwitch((r.misc() & RecordText.MISC_13) != 0, (r.misc() & RecordText.MISC_14) != 0, wide,
            wide ? r.s32(8) : -1, wide ? r.s32(12) : -1);
    }
}
