package dev.dfx.perf.symbol;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The build ids a recording names for its DSOs, by DSO long name ({@code [kernel.kallsyms]}, a path): from the
 * BUILD_ID header feature and HEADER_BUILD_ID records ({@code struct perf_record_header_build_id}: header, pid,
 * 24 bytes of build id whose size is in byte 20 when {@code misc} has {@code PERF_RECORD_MISC_BUILD_ID_SIZE},
 * else 20; then the NUL-padded file name), and MMAP2 records that carry one ({@code MISC_MMAP_BUILD_ID}). An
 * entry that runs past its section ends the section. Not thread-safe.
 */
final class BuildIds {
    private static final int MISC_BUILD_ID_SIZE = 1 << 15;
    private static final int MISC_MMAP_BUILD_ID = 1 << 14;
    private static final int HEADER = 8;
    private static final int ID_BYTES = 24;

    private final Map<String, String> byName = new HashMap<>();

    /** Reads a BUILD_ID feature section. */
    void addFeature(MemorySegment section, Endian e) {
        long off = 0;
        long size = section.byteSize();
        while (off + HEADER + 4 + ID_BYTES <= size) {
            int misc = e.u16(section, off + 4);
            int len = e.u16(section, off + 6);
            if (len < HEADER + 4 + ID_BYTES || len > size - off) {
                return;
            }
            add(section, off, len, misc);
            off += len;
        }
    }

    /** Takes HEADER_BUILD_ID and MMAP2 records as they pass; ignores others. */
    void observe(PerfRecord r) {
        if (r.type() == RecordType.HEADER_BUILD_ID && r.size() >= HEADER + 4 + ID_BYTES) {
            add(r.segment(), r.base(), r.size(), r.misc());
        } else if (r.type() == RecordType.MMAP2 && (r.misc() & MISC_MMAP_BUILD_ID) != 0 && r.size() > 72) {
            int n = Math.min(r.u8(40), 20);
            byte[] id = r.segment().asSlice(r.base() + 44, n).toArray(ValueLayout.JAVA_BYTE);
            byName.put(r.cString(72), HexFormat.of().formatHex(id));
        }
    }

    private void add(MemorySegment seg, long off, int len, int misc) {
        int n = (misc & MISC_BUILD_ID_SIZE) != 0 ? Math.min(Endian.u8(seg, off + HEADER + 4 + 20), 20) : 20;
        byte[] id = seg.asSlice(off + HEADER + 4, n).toArray(ValueLayout.JAVA_BYTE);
        String name = Endian.cString(seg, off + HEADER + 4 + ID_BYTES, len - HEADER - 4 - ID_BYTES);
        byName.put(name, HexFormat.of().formatHex(id));
    }

    /** @return the build id (lower-case hex) the recording gives {@code dso}, or {@code null} */
    String of(String dso) {
        return byName.get(dso);
    }
}
