package dev.dfx.perf.dwarf;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code .debug_aranges} (DWARF 5 §6.1.2): which unit of {@code .debug_info} covers which addresses, an index that
 * spares reading every unit to find one. Sets of versions 2 (and 3-5 laid out alike), 32- and 64-bit formats.
 * Stateless.
 */
final class Aranges {
    /** More ranges than this are not indexed (the units are searched instead). */
    private static final int MAX_RANGES = 1 << 22;

    private Aranges() {
    }

    /**
     * @return the ranges sorted by low address, each {low, high (exclusive), unit offset}; empty for an absent
     *         section
     * @throws DwarfException when a set runs past the section or has an unusable address size
     */
    static long[][] read(DwarfSection sec) {
        List<long[]> out = new ArrayList<>();
        long size = sec.bytes().byteSize();
        DwarfCursor c = sec.cursor(0);
        while (c.pos() < size && out.size() < MAX_RANGES) {
            long start = c.pos();
            long end = c.initialLength("an address range set");
            int offsetSize = c.offsetSize();
            c.u16(); // version
            long unit = c.unsigned(offsetSize);
            int addrSize = c.u8();
            c.u8(); // segment selector size
            if (addrSize != 4 && addrSize != 8) {
                throw c.error("address size " + addrSize + ", expected 4 or 8");
            }
            long tuple = 2L * addrSize;
            long first = start + ((c.pos() - start + tuple - 1) / tuple) * tuple;
            c.seek(first);
            while (c.pos() + tuple <= end && out.size() < MAX_RANGES) {
                long lo = c.unsigned(addrSize);
                long len = c.unsigned(addrSize);
                if (lo == 0 && len == 0) {
                    break;
                }
                if (len != 0) {
                    out.add(new long[] {lo, lo + len, unit});
                }
            }
            c.seek(end);
        }
        out.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
        return out.toArray(long[][]::new);
    }

    /** @return the unit offset of a range holding {@code addr} (the last starting at or below it), or -1 */
    static long find(long[][] ranges, long addr) {
        int lo = 0;
        int hi = ranges.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(ranges[mid][0], addr) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && Long.compareUnsigned(addr, ranges[found][1]) < 0 ? ranges[found][2] : -1;
    }
}
