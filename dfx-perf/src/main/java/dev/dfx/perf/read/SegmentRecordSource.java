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
     * Bytes read between two reports of the read position to the {@link MappedPager}. Small enough that a short read
     * (the 2 MB recording the launcher's AOT cache is trained on) takes the branch in {@link #next()}: the JIT
     * compiles that method on the training's profile, and a branch the profile never saw taken is compiled as a trap
     * that throws the compiled code away when a large file first takes it.
     */
    static final long PAGER_STEP = 1L << 20;

    private final MemorySegment seg;
    private final Endian endian;
    private final long end;
    private final long declaredEnd;
    private final long offsetBias;
    private final InputErrors errors;
    private long pos;
    /** Loads the mapped pages ahead and drops them far behind; {@code null} for a segment in memory. */
    private final MappedPager pager;
    /** The pager hears of the read position once it reaches this offset. */
    private long nextPagerStep;

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
        this.pager = MappedPager.of(seg, start, end);
        this.nextPagerStep = pager != null ? start + PAGER_STEP : Long.MAX_VALUE;
    }

    @Override
    public PerfRecord next() {
        if (pos >= declaredEnd) {
            stopPaging();
            return null;
        }
        if (pos + 8 > end) {
            throw truncated("record header (8 bytes)");
        }
        long header = endian.u64(seg, pos);
        int type = PerfRecord.headerType(header, endian);
        int size = PerfRecord.headerSize(header, endian);
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
        PerfRecord r = new PerfRecord(seg, pos, endian, header, pos - offsetBias, trailingBytes, trailing, false);
        pos += size + trailingBytes;
        if (pos >= nextPagerStep) {
            nextPagerStep = pos + PAGER_STEP;
            pager.advance(pos);
        }
        return r;
    }

    /**
     * Stops the thread that loads pages ahead, waiting for it to leave the segment (before the segment is unmapped);
     * records read stay readable. Safe from any thread, and more than once.
     */
    public void stopPaging() {
        if (pager != null) {
            pager.stop();
        }
    }

    private BadInputException truncated(String what) {
        String where = end < declaredEnd
            ? "data section truncated at EOF " + seg.byteSize() + " (the header declares data up to byte "
                + declaredEnd + ")"
            : "the data section ends at byte " + end;
        return errors.at(pos, "truncated " + what + ": " + where);
    }
}
