package dev.dfx.perf.event;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;

/**
 * A PERF_RECORD_MMAP ({@code {u32 pid, tid; u64 addr, len, pgoff; char filename[]}}) or PERF_RECORD_MMAP2
 * (with device, inode or build id, {@code prot} and {@code flags} before the file name).
 *
 * @param pid      process id (-1 for the kernel)
 * @param tid      thread id
 * @param start    mapped address
 * @param len      length in bytes
 * @param pgoff    file offset of {@code start}
 * @param exec     whether the mapping is executable (MMAP: not MISC_MMAP_DATA; MMAP2: PROT_EXEC)
 * @param hugetlb  whether MMAP2's {@code flags} have MAP_HUGETLB (perf then takes the mapping for anonymous memory)
 * @param filename the mapped file or pseudo-file ({@code [kernel.kallsyms]_text}, {@code //anon}, ...)
 * @param cpumode  {@code header.misc & 7}
 */
public record Mmap(int pid, int tid, long start, long len, long pgoff, boolean exec, boolean hugetlb, String filename,
                   int cpumode) {
    /** {@code MAP_HUGETLB} of {@code mmap(2)} flags. */
    private static final long MAP_HUGETLB = 0x40000;

    /** @throws IllegalArgumentException when {@code r} is neither MMAP nor MMAP2 */
    public static Mmap of(PerfRecord r) {
        if (r.type() == RecordType.MMAP) {
            return new Mmap(r.s32(8), r.s32(12), r.u64(16), r.u64(24), r.u64(32),
                (r.misc() & RecordText.MISC_13) == 0, false, r.cString(40), r.misc() & 7);
        }
        RecordViews.require(r, RecordType.MMAP2);
        return new Mmap(r.s32(8), r.s32(12), r.u64(16), r.u64(24), r.u64(32), (r.u32(64) & 4) != 0,
            (r.u32(68) & MAP_HUGETLB) != 0, r.cString(72), r.misc() & 7);
    }
}
