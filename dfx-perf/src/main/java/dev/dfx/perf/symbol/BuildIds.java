package dev.dfx.perf.symbol;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.read.PerfRecord;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The build ids a recording names for its DSOs, by DSO long name ({@code [kernel.kallsyms]}, a path): from the
 * BUILD_ID header feature and HEADER_BUILD_ID records ({@code struct perf_record_header_build_id}: header, pid,
 * 24 bytes of build id whose size is in byte 20 when {@code misc} has {@code PERF_RECORD_MISC_BUILD_ID_SIZE},
 * else 20; then the NUL-padded file name), and MMAP2 records that carry one ({@code MISC_MMAP_BUILD_ID}). An
 * entry that runs past its section ends the section. Not thread-safe.
 */
public final class BuildIds {
    /** {@code HOST_KERNEL_ID}: the pid of the host machine's entries. */
    private static final int HOST_PID = -1;
    private static final int MISC_BUILD_ID_SIZE = 1 << 15;
    private static final int MISC_MMAP_BUILD_ID = 1 << 14;
    private static final int HEADER = 8;
    private static final int ID_BYTES = 24;

    private final Map<String, String> byName = new HashMap<>();

    BuildIds() {
    }

    /** Reads a BUILD_ID feature section. */
    void addFeature(MemorySegment section, Endian e) {
        forEachEntry(section, e, (off, len, misc) -> add(section, off, len, misc));
    }

    /**
     * The host's DSOs in the order a BUILD_ID feature section lists them: perf report creates a {@code struct dso}
     * for each entry as it reads the header ({@code perf_header__read_build_ids}), before any MMAP record, so this
     * is the start of the order in which its DSOs are allocated. Guest entries ({@code pid} not -1) are left out.
     *
     * @param section the BUILD_ID feature section (entries of {@code struct perf_record_header_build_id})
     * @param e       the recording's byte order
     * @return the DSO names as frames carry them ({@link Machine#dsoName}), in
     *         section order, each as often as the section names it
     */
    public static List<String> hostDsos(MemorySegment section, Endian e) {
        List<String> out = new ArrayList<>();
        forEachEntry(section, e, (off, len, misc) -> {
            int cpumode = misc & 7;
            if (e.s32(section, off + HEADER) != HOST_PID
                || cpumode != Machine.CPUMODE_KERNEL && cpumode != Machine.CPUMODE_USER) {
                return;
            }
            String name = Endian.cString(section, off + HEADER + 4 + ID_BYTES, len - HEADER - 4 - ID_BYTES);
            out.add(Machine.dsoName(cpumode, name));
        });
        return out;
    }

    @FunctionalInterface
    private interface EntryVisitor {
        void visit(long off, int len, int misc);
    }

    /** Visits each whole entry of a BUILD_ID section; an entry that runs past the section ends the walk. */
    private static void forEachEntry(MemorySegment section, Endian e, EntryVisitor visitor) {
        long off = 0;
        long size = section.byteSize();
        while (off + HEADER + 4 + ID_BYTES <= size) {
            int misc = e.u16(section, off + 4);
            int len = e.u16(section, off + 6);
            if (len < HEADER + 4 + ID_BYTES || len > size - off) {
                return;
            }
            visitor.visit(off, len, misc);
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
