package dev.dfx.perf.read;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.lang.foreign.MemorySegment;

/**
 * One record of a perf.data data section: {@code struct perf_event_header {u32 type; u16 misc; u16 size;}}
 * followed by {@code size - 8} bytes of body, viewed in place (a chunk of the file read by {@link FileRecordSource},
 * a pipe-mode record's own buffer or a decompressed PERF_RECORD_COMPRESSED block, each a heap array never
 * overwritten; an AUXTRACE record found through the file's index is a slice of the mapped file). Field accessors
 * take offsets relative to the start of the header, as in {@code union perf_event}.
 *
 * <p>A PERF_RECORD_AUXTRACE record (48 bytes) is followed by {@code auxtrace.size} bytes of AUX data that
 * {@code size} does not count; {@link #trailingBytes()} says how many, and {@link #trailingOffset()} where they
 * start in the file. Immutable; safe to share between threads while its segment stays open.
 */
public final class PerfRecord {
    private final MemorySegment seg;
    private final long base;
    private final Endian endian;
    private final int type;
    private final int misc;
    private final int size;
    private final long fileOffset;
    private final long trailingBytes;
    private final MemorySegment trailing;
    private final boolean fromCompressed;

    /**
     * @param seg            the segment holding the record
     * @param base           offset of the header in {@code seg}
     * @param endian         the file's byte order
     * @param fileOffset     the offset perf reports for this record (file offset; pipe position after the
     *                       16-byte pipe header; for records unpacked from PERF_RECORD_COMPRESSED the offset of
     *                       that record)
     * @param trailingBytes  bytes that follow the record without being counted in {@code size}
     *                       (AUXTRACE payload, pipe-mode tracing data)
     * @param trailing       those bytes when available (mapped or copied), else {@code null}
     * @param fromCompressed whether the record was unpacked from a PERF_RECORD_COMPRESSED record
     */
    public PerfRecord(MemorySegment seg, long base, Endian endian, long fileOffset, long trailingBytes,
                      MemorySegment trailing, boolean fromCompressed) {
        this(seg, base, endian, endian.u64(seg, base), fileOffset, trailingBytes, trailing, fromCompressed);
    }

    /** As the public constructor, with the header already read as one u64 ({@link #headerType} and its kin). */
    PerfRecord(MemorySegment seg, long base, Endian endian, long header, long fileOffset, long trailingBytes,
               MemorySegment trailing, boolean fromCompressed) {
        this.seg = seg;
        this.base = base;
        this.endian = endian;
        this.type = headerType(header, endian);
        this.misc = headerMisc(header, endian);
        this.size = headerSize(header, endian);
        this.fileOffset = fileOffset;
        this.trailingBytes = trailingBytes;
        this.trailing = trailing;
        this.fromCompressed = fromCompressed;
    }

    // struct perf_event_header {u32 type; u16 misc; u16 size;} read as one u64 in the file's byte order: a record's
    // reader takes all three fields from one access instead of three (each with its bounds and liveness checks)

    /** @return {@code header.type} of a perf_event_header read as a u64 through {@code endian} */
    static int headerType(long header, Endian endian) {
        return endian == Endian.LITTLE ? (int) header : (int) (header >>> 32);
    }

    /** @return {@code header.misc} of a perf_event_header read as a u64 through {@code endian} */
    static int headerMisc(long header, Endian endian) {
        return (int) (endian == Endian.LITTLE ? header >>> 32 : header >>> 16) & 0xffff;
    }

    /** @return {@code header.size} of a perf_event_header read as a u64 through {@code endian} */
    static int headerSize(long header, Endian endian) {
        return (int) (endian == Endian.LITTLE ? header >>> 48 : header) & 0xffff;
    }

    /** @return {@code header.type} ({@link RecordType}) */
    public int type() {
        return type;
    }

    /** @return {@code header.misc} (cpumode in bits 0-2, type-specific flags above) */
    public int misc() {
        return misc;
    }

    /** @return {@code header.size}: bytes of header and body */
    public int size() {
        return size;
    }

    /** @return the offset perf prints for this record (see the constructor) */
    public long fileOffset() {
        return fileOffset;
    }

    /** @return the file's byte order */
    public Endian endian() {
        return endian;
    }

    /** @return whether the record was unpacked from a PERF_RECORD_COMPRESSED record */
    public boolean fromCompressed() {
        return fromCompressed;
    }

    /** @return bytes that follow the record in the stream without being counted in {@link #size()} */
    public long trailingBytes() {
        return trailingBytes;
    }

    /** @return file offset (pipe position) of the first trailing byte: {@code fileOffset + size} */
    public long trailingOffset() {
        return fileOffset + size;
    }

    /** @return the trailing bytes (AUXTRACE payload, pipe tracing data), or {@code null} if not kept */
    public MemorySegment trailing() {
        return trailing;
    }

    /** @return the record's bytes (header included) as a slice of its segment; no copy */
    public MemorySegment bytes() {
        return seg.asSlice(base, size);
    }

    /** @return the u64 at byte {@code rel} of the record */
    public long u64(int rel) {
        return endian.u64(seg, base + rel);
    }

    /** @return the u32 at byte {@code rel}, zero-extended */
    public long u32(int rel) {
        return endian.u32(seg, base + rel);
    }

    /** @return the s32 at byte {@code rel} */
    public int s32(int rel) {
        return endian.s32(seg, base + rel);
    }

    /** @return the u16 at byte {@code rel} */
    public int u16(int rel) {
        return endian.u16(seg, base + rel);
    }

    /** @return the u8 at byte {@code rel} */
    public int u8(int rel) {
        return Endian.u8(seg, base + rel);
    }

    /** @return the double at byte {@code rel} */
    public double f64(int rel) {
        return endian.f64(seg, base + rel);
    }

    /** @return the NUL-terminated string starting at byte {@code rel}, bounded by the record's end */
    public String cString(int rel) {
        return Endian.cString(seg, base + rel, Math.max(0, size - rel));
    }

    /** @return the NUL-terminated string at byte {@code rel}, at most {@code max} bytes */
    public String cString(int rel, int max) {
        return Endian.cString(seg, base + rel, Math.max(0, Math.min(max, size - rel)));
    }

    /** @return the segment holding the record (for zero-copy readers such as the tracepoint decoder) */
    public MemorySegment segment() {
        return seg;
    }

    /** @return offset of the record's header inside {@link #segment()} */
    public long base() {
        return base;
    }

    @Override
    public String toString() {
        return RecordType.name(type) + "@" + Long.toHexString(fileOffset) + "[" + size + "]";
    }
}
