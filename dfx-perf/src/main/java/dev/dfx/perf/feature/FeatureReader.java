package dev.dfx.perf.feature;

import dev.dfx.perf.data.Endian;
import java.lang.foreign.MemorySegment;

/**
 * A cursor over a feature section with perf's header encodings ({@code header.c do_read_u32/u64/string}):
 * {@code perf_header_string} is {@code {u32 len; char str[len]}} with {@code len} counting the NUL and
 * padding. Reads past the section end return 0 or "" and set {@link #overrun()}. Not thread-safe.
 */
public final class FeatureReader {
    private final MemorySegment seg;
    private final Endian e;
    private long pos;
    private boolean overrun;

    /** @param seg the section bytes */
    public FeatureReader(MemorySegment seg, Endian e) {
        this.seg = seg;
        this.e = e;
    }

    /** @return the next u32 */
    public long u32() {
        if (!fits(Integer.BYTES)) {
            return 0;
        }
        long v = e.u32(seg, pos);
        pos += Integer.BYTES;
        return v;
    }

    /** @return the next u64 */
    public long u64() {
        if (!fits(Long.BYTES)) {
            return 0;
        }
        long v = e.u64(seg, pos);
        pos += Long.BYTES;
        return v;
    }

    /** @return whether {@code n} more bytes are left; if not, marks the overrun and moves to the end */
    private boolean fits(int n) {
        if (pos + n <= seg.byteSize()) {
            return true;
        }
        overrun = true;
        pos = seg.byteSize();
        return false;
    }

    /** @return the next perf_header_string (text before the first NUL) */
    public String string() {
        long len = u32();
        if (pos + len > seg.byteSize()) {
            overrun = true;
            len = seg.byteSize() - pos;
        }
        String s = Endian.cString(seg, pos, len);
        pos += len;
        return s;
    }

    /** @return {@code n} raw bytes as a slice, advancing past them */
    public MemorySegment bytes(long n) {
        if (n < 0 || pos + n > seg.byteSize()) {
            overrun = true;
            n = Math.max(0, seg.byteSize() - pos);
        }
        MemorySegment s = seg.asSlice(pos, n);
        pos += n;
        return s;
    }

    /** @return bytes left */
    public long remaining() {
        return seg.byteSize() - pos;
    }

    /** @return whether a read ran past the section end */
    public boolean overrun() {
        return overrun;
    }
}
