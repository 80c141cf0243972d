package dev.dfx.perf.event;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;
import java.lang.foreign.MemorySegment;

/**
 * A PERF_RECORD_AUXTRACE header ({@code {u64 size, offset, reference; u32 idx, tid, cpu, reserved}}, 48 bytes)
 * and where its AUX payload lies: {@code size} bytes right after the record, not counted in its size
 * ({@code auxtrace.c}). The payload is per mmap index ({@code idx}, per-cpu recording: the cpu), i.e. one
 * queue per index for a time-ordered merge.
 *
 * @param size          payload bytes
 * @param offset        offset of the payload within the AUX area stream of its mmap
 * @param reference     the decoder's reference value (e.g. a timestamp)
 * @param idx           mmap index: the queue the payload belongs to
 * @param tid           thread, or -1
 * @param cpu           cpu, or -1
 * @param payloadOffset file offset (pipe position) of the first payload byte
 * @param payload       the payload bytes (mapped or copied), or {@code null} when not available
 */
public record Auxtrace(long size, long offset, long reference, long idx, int tid, int cpu, long payloadOffset,
                       MemorySegment payload) {
    /** @throws IllegalArgumentException when {@code r} is not an AUXTRACE record */
    public static Auxtrace of(PerfRecord r) {
        RecordViews.require(r, RecordType.AUXTRACE);
        return new Auxtrace(r.u64(8), r.u64(16), r.u64(24), r.u32(32), r.s32(36), r.s32(40), r.trailingOffset(),
            r.trailing());
    }
}
