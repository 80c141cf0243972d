package dev.dfx.cli;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: the parts of a little-endian perf.data file (file or pipe format), found by a walk of its own
 * that shares no code with the reader under test (perf.data layout: tools/perf/util/header.h
 * {@code struct perf_file_header}, {@code struct perf_file_attr}, {@code struct perf_event_header}). Each region
 * is a half-open byte range of the file with the kind of bytes it holds.
 */
final class PerfDataRegions {
    /** What a region holds. */
    enum Kind {
        /** the file header (104 bytes) or the pipe header (16 bytes) */
        HEADER,
        /** the attrs section (attrs and their ids section pointers) */
        ATTRS,
        /** the sample ids of the attrs */
        IDS,
        /** the feature section table and the feature sections */
        FEATURES,
        /** the 8-byte {@code perf_event_header} of a data-section record */
        RECORD_HEADER,
        /** the body of a data-section record (the zstd payload of a COMPRESSED record excluded) */
        RECORD_BODY,
        /** the zstd payload of a PERF_RECORD_COMPRESSED record */
        COMPRESSED_PAYLOAD,
        /** bytes after a record that its size does not count (pipe-mode tracing data) */
        TRAILING
    }

    /** A half-open byte range {@code [start, end)} of one kind. */
    record Region(Kind kind, int start, int end) {
    }

    private static final int COMPRESSED = 81;
    private static final int HEADER_TRACING_DATA = 66;

    private PerfDataRegions() {
    }

    /** @return the regions of {@code file}, in file order per kind */
    static List<Region> of(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Region> out = new ArrayList<>();
        long headerSize = b.getLong(8);
        if (headerSize == 16) {
            out.add(new Region(Kind.HEADER, 0, 16));
            records(b, 16, file.length, out);
            return out;
        }
        out.add(new Region(Kind.HEADER, 0, 104));
        int attrSize = (int) b.getLong(16);
        int attrs = (int) b.getLong(24);
        int attrsSize = (int) b.getLong(32);
        out.add(new Region(Kind.ATTRS, attrs, attrs + attrsSize));
        for (int a = attrs; a < attrs + attrsSize; a += attrSize) {
            int ids = (int) b.getLong(a + attrSize - 16);
            int idsSize = (int) b.getLong(a + attrSize - 8);
            if (idsSize > 0) {
                out.add(new Region(Kind.IDS, ids, ids + idsSize));
            }
        }
        int data = (int) b.getLong(40);
        int dataEnd = data + (int) b.getLong(48);
        records(b, data, dataEnd, out);
        int features = 0;
        for (int i = 0; i < 4; i++) {
            features += Long.bitCount(b.getLong(72 + 8 * i));
        }
        out.add(new Region(Kind.FEATURES, dataEnd, dataEnd + 16 * features));
        for (int i = 0; i < features; i++) {
            int off = (int) b.getLong(dataEnd + 16 * i);
            int size = (int) b.getLong(dataEnd + 16 * i + 8);
            if (size > 0) {
                out.add(new Region(Kind.FEATURES, off, off + size));
            }
        }
        return out;
    }

    private static void records(ByteBuffer b, int start, int end, List<Region> out) {
        int p = start;
        while (p + 8 <= end) {
            int type = b.getInt(p);
            int size = b.getShort(p + 6) & 0xffff;
            out.add(new Region(Kind.RECORD_HEADER, p, p + 8));
            if (type == COMPRESSED) {
                out.add(new Region(Kind.COMPRESSED_PAYLOAD, p + 8, p + size));
            } else if (size > 8) {
                out.add(new Region(Kind.RECORD_BODY, p + 8, p + size));
            }
            int trailing = type == HEADER_TRACING_DATA ? b.getInt(p + 8) : 0;
            if (trailing > 0) {
                out.add(new Region(Kind.TRAILING, p + size, p + size + trailing));
            }
            p += size + trailing;
        }
    }
}
