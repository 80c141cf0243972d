package dev.dfx.perf.read;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.lang.foreign.MemorySegment;

/**
 * Records of a data section held in one segment (a mapped file, or a file-backed pipe-format stream).
 * Reads records in place without copying; AUXTRACE payloads and pipe-mode tracing data are exposed as
 * slices. Not thread-safe.
 */
public final class SegmentRecordSource implements RecordSource {
    /**
     * How far behind the read position mapped pages stay resident. Records read earlier are still used while they
     * wait in the reordering queue (a round or two, a few MB), so the pages behind them are kept; pages further back
     * are dropped from this process ({@link MemorySegment#unload()}: madvise(MADV_DONTNEED)), so that reading a
     * large file does not keep all of it resident. A page that is touched again after all is read back from the page
     * cache: dropping changes only the resident size, never what is read.
     */
    static final long RESIDENT_BEHIND = 16L << 20;
    /** Pages are dropped in steps of this many bytes (one madvise each). */
    static final long UNLOAD_STEP = 8L << 20;

    private final MemorySegment seg;
    private final Endian endian;
    private final long end;
    private final long declaredEnd;
    private final long offsetBias;
    private final InputErrors errors;
    private long pos;
    /** Mapped pages before this offset have been dropped. */
    private long unloaded;

    /**
     * @param seg         the bytes
     * @param start       offset of the first record
     * @param declaredEnd offset where the data section should end according to the header
     * @param offsetBias  subtracted from segment offsets to give the offset perf prints (16 for pipe mode)
     * @param errors      names the file in error messages
     */
    public SegmentRecordSource(MemorySegment seg, Endian endian, long start, long declaredEnd, long offsetBias,
                               InputErrors errors) {
        this.seg = seg;
        this.endian = endian;
        this.pos = start;
        this.declaredEnd = declaredEnd;
        this.end = Math.min(declaredEnd, seg.byteSize());
        this.offsetBias = offsetBias;
        this.errors = errors;
        this.unloaded = start;
    }

    @Override
    public PerfRecord next() {
        if (pos >= declaredEnd) {
            return null;
        }
        if (pos + 8 > end) {
            throw truncated("record header (8 bytes)");
        }
        int type = endian.s32(seg, pos);
        int size = endian.u16(seg, pos + 6);
        if (size < 8) {
            throw errors.at(pos, "record of type " + type + " has size " + size
                + ", expected at least 8 (perf_event_header)");
        }
        if (pos + size > end) {
            throw truncated(RecordType.name(type) + " record of " + size + " bytes");
        }
        long trailingBytes = RecordFraming.trailingBytes(seg, pos, type, size, endian);
        if (trailingBytes < 0 || pos + size + trailingBytes > end) {
            throw truncated(RecordType.name(type) + " payload of " + Long.toUnsignedString(trailingBytes) + " bytes");
        }
        MemorySegment trailing = trailingBytes > 0 ? seg.asSlice(pos + size, trailingBytes) : null;
        PerfRecord r = new PerfRecord(seg, pos, endian, pos - offsetBias, trailingBytes, trailing, false);
        pos += size + trailingBytes;
        if (pos - unloaded > RESIDENT_BEHIND + UNLOAD_STEP && seg.isMapped()) {
            long upTo = pos - RESIDENT_BEHIND;
            seg.asSlice(unloaded, upTo - unloaded).unload();
            unloaded = upTo;
        }
        return r;
    }

    private BadInputException truncated(String what) {
        String where = end < declaredEnd
            ? "data section truncated at EOF " + seg.byteSize() + " (the header declares data up to byte "
                + declaredEnd + ")"
            : "the data section ends at byte " + end;
        return errors.at(pos, "truncated " + what + ": " + where);
    }
}
