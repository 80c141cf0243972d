package dev.dfx.perf.auxtrace;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfFile;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.read.RecordSource;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The AUX buffers of a recording grouped into one queue per mmap index, before any record is processed, as
 * perf's {@code auxtrace_queues__process_index} does (tools/perf/util/auxtrace.c): from the HEADER_AUXTRACE
 * feature ({@code {u64 nr; {u64 file_offset; u64 sz}[nr]}}, one entry per AUXTRACE record), each entry's
 * record read at its offset. A recording without that index (its header was never finished, or a pipe-format
 * file) is scanned for AUXTRACE records instead, which perf does not do. A stream on standard input has no
 * queues. Stateless.
 */
public final class AuxtraceQueues {
    /** Bytes of a PERF_RECORD_AUXTRACE record without its payload. */
    public static final int RECORD_SIZE = 48;

    private AuxtraceQueues() {
    }

    /**
     * @param file an opened recording
     * @return the non-empty queues by ascending mmap index
     * @throws BadInputException naming the file and byte offset when the index is cut short, an entry does not
     *                           point at an AUXTRACE record, a payload runs past the data section, or a queue's
     *                           buffers disagree on cpu or thread ("auxtrace queue conflict")
     */
    public static List<AuxtraceQueue> of(PerfFile file) {
        if (file.segment() == null) {
            return List.of();
        }
        MemorySegment index = file.features().get(Feature.AUXTRACE.bit());
        List<Found> found = index != null ? fromIndex(file, index) : scan(file);
        return group(found, file.name());
    }

    /** An AUXTRACE record located in the file. */
    private record Found(PerfRecord record, long payloadOffset, MemorySegment payload) {
    }

    private static List<Found> fromIndex(PerfFile file, MemorySegment index) {
        Endian e = file.endian();
        String name = file.name();
        if (index.byteSize() < 8) {
            throw new BadInputException(name + ": AUXTRACE feature section of " + index.byteSize()
                + " bytes is too short for its entry count (8 bytes)");
        }
        long nr = e.u64(index, 0);
        if (nr < 0 || nr > (index.byteSize() - 8) / 16) {
            throw new BadInputException(name + ": AUXTRACE feature section holds " + Long.toUnsignedString(nr)
                + " entries of 16 bytes, but has room for " + (index.byteSize() - 8) / 16);
        }
        MemorySegment seg = file.segment();
        long dataEnd = file.header().dataOffset() + file.header().dataSize();
        List<Found> out = new ArrayList<>((int) nr);
        for (long i = 0; i < nr; i++) {
            long at = e.u64(index, 8 + 16 * i);
            long sz = e.u64(index, 16 + 16 * i);
            if (at < file.header().dataOffset() || at > dataEnd - RECORD_SIZE) {
                throw new BadInputException(name + ": AUXTRACE index entry " + i + " points at byte offset " + at
                    + ", outside the data section [" + file.header().dataOffset() + ", " + dataEnd + ")");
            }
            PerfRecord r = new PerfRecord(seg, at, e, at, 0, null, false);
            if (r.type() != RecordType.AUXTRACE || r.size() < RECORD_SIZE || r.size() != sz) {
                throw new BadInputException(name + ": AUXTRACE index entry " + i + " points at byte offset " + at
                    + ", which holds a " + RecordType.name(r.type()) + " record of " + r.size()
                    + " bytes, expected an AUXTRACE record of " + sz + " bytes");
            }
            long payloadAt = at + r.size();
            long size = r.u64(8);
            if (size < 0 || size > dataEnd - payloadAt) {
                throw new BadInputException(name + ": AUXTRACE record at byte offset " + at + ": payload of "
                    + Long.toUnsignedString(size) + " bytes at byte offset " + payloadAt
                    + " runs past the data section end " + dataEnd);
            }
            out.add(new Found(r, payloadAt, seg.asSlice(payloadAt, size)));
        }
        return out;
    }

    private static List<Found> scan(PerfFile file) {
        List<Found> out = new ArrayList<>();
        RecordSource src = file.rawRecords();
        for (PerfRecord r = src.next(); r != null; r = src.next()) {
            if (r.type() == RecordType.AUXTRACE && r.size() >= RECORD_SIZE && r.trailing() != null) {
                out.add(new Found(r, r.trailingOffset(), r.trailing()));
            }
        }
        return out;
    }

    private static List<AuxtraceQueue> group(List<Found> found, String name) {
        Map<Integer, List<AuxtraceBuffer>> byIndex = new TreeMap<>();
        int nr = 0;
        for (Found f : found) {
            PerfRecord r = f.record();
            int idx = (int) r.u32(32);
            int tid = r.s32(36);
            int cpu = r.s32(40);
            List<AuxtraceBuffer> q = byIndex.computeIfAbsent(idx, k -> new ArrayList<>());
            if (!q.isEmpty() && (q.get(0).cpu() != cpu || q.get(0).tid() != tid)) {
                throw new BadInputException(name + ": auxtrace queue conflict: AUXTRACE record at byte offset "
                    + r.fileOffset() + " puts cpu " + cpu + ", tid " + tid + " into queue " + idx
                    + ", whose first buffer (byte offset " + q.get(0).recordOffset() + ") has cpu " + q.get(0).cpu()
                    + ", tid " + q.get(0).tid());
            }
            q.add(new AuxtraceBuffer(idx, cpu, tid, r.u64(16), r.u64(24), r.fileOffset(), f.payloadOffset(), nr++,
                f.payload()));
        }
        List<AuxtraceQueue> queues = new ArrayList<>(byIndex.size());
        for (Map.Entry<Integer, List<AuxtraceBuffer>> q : byIndex.entrySet()) {
            AuxtraceBuffer first = q.getValue().get(0);
            queues.add(new AuxtraceQueue(q.getKey(), first.cpu(), first.tid(), List.copyOf(q.getValue())));
        }
        return queues;
    }
}
