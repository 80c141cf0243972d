package dev.dfx.perf.read;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * File-order records with PERF_RECORD_COMPRESSED (and COMPRESSED2) unpacked: the compressed record itself is
 * returned first, then the records inside it, each reporting the compressed record's file offset (as
 * {@code perf report -D} prints them), then the next record of the file. A record cut at the end of one
 * compressed block continues in the next ({@code session.c perf_session__process_compressed_event}); a record
 * still incomplete when the data ends is damage (perf drops it silently; dfx refuses it). Not thread-safe.
 */
public final class UnpackingRecordSource implements RecordSource, AutoCloseable {
    private static final byte[] NONE = new byte[0];

    private final RecordSource raw;
    private final Endian endian;
    private final InputErrors errors;
    private ZstdUnpacker zstd;
    private MemorySegment block;
    private long blockPos;
    private PerfRecord blockRecord;
    private byte[] carry = NONE;

    /**
     * @param raw    the file's records
     * @param endian the file's byte order
     * @param errors names the file in errors
     */
    public UnpackingRecordSource(RecordSource raw, Endian endian, InputErrors errors) {
        this.raw = raw;
        this.endian = endian;
        this.errors = errors;
    }

    /**
     * @throws dev.dfx.error.BadInputException for a damaged compressed record or a damaged record inside one
     */
    @Override
    public PerfRecord next() {
        if (block != null) {
            PerfRecord inner = nextInBlock();
            if (inner != null) {
                return inner;
            }
        }
        PerfRecord r = raw.next();
        if (r != null && (r.type() == RecordType.COMPRESSED || r.type() == RecordType.COMPRESSED2)) {
            unpack(r);
        } else if (r == null && carry.length > 0) {
            throw errors.at(blockRecord, "the unpacked data ends inside a record: " + carry.length + " bytes of a"
                + " record of " + (carry.length >= 8 ? endian.u16(MemorySegment.ofArray(carry), 6) : "unknown")
                + " bytes are left; expected whole records");
        }
        return r;
    }

    private void unpack(PerfRecord r) {
        int headerLen = r.type() == RecordType.COMPRESSED2 ? 16 : 8;
        long len = r.size() - headerLen;
        if (len < 0) {
            throw errors.at(r, RecordType.name(r.type()) + " record of " + r.size() + " bytes is shorter than its "
                + headerLen + "-byte header");
        }
        if (r.type() == RecordType.COMPRESSED2) {
            long declared = r.u64(8);
            if (declared < 0 || declared > len) {
                throw errors.at(r, "PERF_RECORD_COMPRESSED2 declares " + Long.toUnsignedString(declared)
                    + " data bytes but holds " + len + "; expected at most " + len);
            }
            len = declared;
        }
        if (zstd == null) {
            zstd = new ZstdUnpacker();
        }
        block = zstd.unpack(r.segment().asSlice(r.base() + headerLen, len), carry, r, errors);
        blockPos = 0;
        blockRecord = r;
        carry = NONE;
    }

    private PerfRecord nextInBlock() {
        long left = block.byteSize() - blockPos;
        if (left >= 8) {
            int size = endian.u16(block, blockPos + 6);
            if (size < 8) {
                throw errors.at(blockRecord, RecordFraming.sizeBelowHeader(endian.s32(block, blockPos), size)
                    + " (unpacked byte " + blockPos + ")");
            }
            if (size <= left) {
                PerfRecord r = new PerfRecord(block, blockPos, endian, blockRecord.fileOffset(), 0, null, true);
                blockPos += size;
                return r;
            }
        }
        // An incomplete record continues in the next compressed block.
        carry = block.asSlice(blockPos).toArray(ValueLayout.JAVA_BYTE);
        block = null;
        return null;
    }

    @Override
    public void close() {
        if (zstd != null) {
            zstd.close();
        }
    }
}
