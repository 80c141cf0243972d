package dev.dfx.perf.vpadtl;

import dev.dfx.perf.text.TextSink;
import java.lang.foreign.MemorySegment;

/**
 * The {@code synth} field of a vpa-dtl sample in {@code perf script} ({@code perf_sample__fprintf_synth_vpadtl},
 * builtin-script.c, patch "tools/perf: Add support for printing synth event details for vpa-dtl" V3):
 * <pre>
 * timebase: %lu dispatch_reason:%s, preempt_reason:%s,\n
 * enqueue_to_dispatch_time:%d, ready_to_enqueue_time:%d,waiting_to_ready_time:%d, processor_id: %d
 * </pre>
 * (a line break inside, and no space before {@code waiting_to_ready_time}, as in the patch). Stateless.
 */
public final class DtlText {
    private DtlText() {
    }

    /** Prints the entry at {@code at} of {@code s}. */
    public static void print(MemorySegment s, long at, TextSink out) {
        out.put("timebase: ").udec(DtlEntry.timebase(s, at))
            .put(" dispatch_reason:").put(DtlReasons.dispatch(DtlEntry.dispatchReason(s, at)))
            .put(", preempt_reason:").put(DtlReasons.preempt(DtlEntry.preemptReason(s, at)))
            .put(",\nenqueue_to_dispatch_time:").dec(DtlEntry.enqueueToDispatch(s, at))
            .put(", ready_to_enqueue_time:").dec(DtlEntry.readyToEnqueue(s, at))
            .put(",waiting_to_ready_time:").dec(DtlEntry.waitingToReady(s, at))
            .put(", processor_id: ").dec(DtlEntry.processorId(s, at));
    }
}
