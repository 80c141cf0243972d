package dev.dfx.perf.read;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * File-order records with PERF_RECORD_COMPRESSED (and COMPRESSED2) unpacked: the compressed record itself is
 * returned first, then the records inside it, each reporting the compressed record's file offset (as
 * {@code perf report -D} prints them), then the next record of the file. Not thread-safe.
 */
public final class UnpackingRecordSource implements RecordSource, AutoCloseable {
    private static final byte[] NONE = new byte[0];

    private final RecordSource raw;
    private final Endian endian;
    private final String name;
    private ZstdUnpacker zstd;
    private MemorySegment block;
    private long blockPos;
    private long blockOffset;
    private byte[] carry = NONE;

    /**
     * @param raw    the file's records
     * @param name   file name for errors
     */
    public UnpackingRecordSource(RecordSource raw, Endian endian, String name) {
        this.raw = raw;
        this.endian = endian;
        this.name = name;
    }

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
        }
        return r;
    }

    private void unpack(PerfRecord r) {
        int headerLen = r.type() == RecordType.COMPRESSED2 ? 16 : 8;
        long len = r.size() - headerLen;
        if (r.type() == RecordType.COMPRESSED2) {
            long declared = r.u64(8);
            if (declared < 0 || declared > len) {
                throw new BadInputException(name + ": PERF_RECORD_COMPRESSED2 at byte offset " + r.fileOffset()
                    + " declares " + Long.toUnsignedString(declared) + " data bytes but holds " + len);
            }
            len = declared;
        }
        if (zstd == null) {
            zstd = new ZstdUnpacker();
        }
        block = zstd.unpack(r.segment().asSlice(r.base() + headerLen, len), carry, name, r.fileOffset());
        blockPos = 0;
        blockOffset = r.fileOffset();
        carry = NONE;
    }

    private PerfRecord nextInBlock() {
        long left = block.byteSize() - blockPos;
        if (left >= 8) {
            int size = endian.u16(block, blockPos + 6);
            if (size < 8) {
                throw new BadInputException(name + ": record inside PERF_RECORD_COMPRESSED at byte offset "
                    + blockOffset + " has size " + size + ", expected at least 8");
            }
            if (size <= left) {
                PerfRecord r = new PerfRecord(block, blockPos, endian, blockOffset, 0, null, true);
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
