package dev.dfx.perf.trace;

import dev.dfx.perf.data.Endian;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The raw bytes of one tracepoint record (the PERF_SAMPLE_RAW payload), viewed in place.
 *
 * @param seg    holding segment
 * @param base   offset of the first raw byte in {@code seg}
 * @param size   bytes of raw data
 * @param endian byte order of the tracing data ({@code file_bigendian})
 */
public record RawData(MemorySegment seg, long base, int size, Endian endian) {
    /** {@code tep_read_number}: an unsigned number of 1, 2, 4 or 8 bytes at {@code off}; other sizes read 0. */
    long number(int off, int bytes) {
        if (off < 0 || off + bytes > size) {
            return 0;
        }
        return switch (bytes) {
            case 1 -> Endian.u8(seg, base + off);
            case 2 -> endian.u16(seg, base + off);
            case 4 -> endian.u32(seg, base + off);
            case 8 -> endian.u64(seg, base + off);
            default -> 0;
        };
    }

    /** @return the byte at {@code off} (0 outside the data) */
    int u8(int off) {
        return off >= 0 && off < size ? Endian.u8(seg, base + off) : 0;
    }

    /** @return the NUL-terminated string at {@code off}, at most {@code max} bytes and never past the data */
    String cString(int off, int max) {
        if (off < 0 || off >= size) {
            return "";
        }
        return Endian.cString(seg, base + off, Math.min(max, size - off));
    }

    /** Appends what {@link #cString} returns, one char per byte, without making a String of it. */
    void appendCString(int off, int max, StringBuilder out) {
        if (off < 0 || off >= size) {
            return;
        }
        long at = base + off;
        long end = Math.min(at + Math.min(max, size - off), seg.byteSize());
        for (; at < end; at++) {
            byte b = seg.get(ValueLayout.JAVA_BYTE, at);
            if (b == 0) {
                return;
            }
            out.append((char) (b & 0xff));
        }
    }
}
