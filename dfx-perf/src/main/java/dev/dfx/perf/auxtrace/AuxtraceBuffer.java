package dev.dfx.perf.auxtrace;

import java.lang.foreign.MemorySegment;

/**
 * One PERF_RECORD_AUXTRACE record's AUX data as a decoder queues it ({@code auxtrace.h struct auxtrace_buffer}):
 * where the record and its payload are in the file, and the payload itself as a slice of the mapped file, so
 * nothing is read until a decoder walks it. Immutable; valid while the session's file is open.
 *
 * @param queue         mmap index ({@code auxtrace.idx}): the queue the buffer belongs to
 * @param cpu           cpu of the recording mmap, or -1
 * @param tid           thread, or -1
 * @param offset        offset of the payload in its mmap's AUX area stream ({@code auxtrace.offset})
 * @param reference     the decoder's reference value ({@code auxtrace.reference})
 * @param recordOffset  file offset of the AUXTRACE record
 * @param payloadOffset file offset of the first payload byte (record offset + 48)
 * @param bufferNr      arrival number over all queues, from 0 ({@code buffer_nr})
 * @param payload       the payload bytes ({@code auxtrace.size} bytes)
 */
public record AuxtraceBuffer(int queue, int cpu, int tid, long offset, long reference, long recordOffset,
                             long payloadOffset, int bufferNr, MemorySegment payload) {
    /** @return payload bytes */
    public long size() {
        return payload.byteSize();
    }
}
