package dev.dfx.perf.unwind;

import dev.dfx.perf.machine.MapGroup;
import dev.dfx.perf.machine.MemMap;

/**
 * Finds the FDE of an address through the DSO's {@code .eh_frame_hdr} search table, as perf 6.1 hands it to
 * libunwind ({@code find_proc_info}, {@code read_unwind_spec_eh_frame}, libunwind's {@code dwarf_search_unwind_table}
 * and {@code remote_lookup}). The header is read from the file: version, three encodings, the {@code eh_frame_ptr}
 * (skipped) and the FDE count, in perf's decoder (absolute or pc-relative, 4- or 8-byte; a header shorter than 20
 * bytes in the file fails). The table is placed at run time at the lowest start of the DSO's mappings minus its
 * link-time base plus the section's address, and read through process memory: {@code fde_count} pairs of signed
 * 32-bit (initial location, FDE address) relative to the header, searched by binary search for the last entry at or
 * below the address. Stateless.
 */
final class EhFrameTable {
    private static final int HDR_BYTES = 20;

    private EhFrameTable() {
    }

    /**
     * @param mem the process memory
     * @param ip  the address to look up (already moved back one byte for a caller's frame)
     * @return the FDE covering {@code ip}
     * @throws UnwindException {@link UnwindException.Kind#NO_INFO} when the table has no FDE for {@code ip};
     *                         {@link UnwindException.Kind#FAILED} when {@code ip} is in no mapping, its DSO has
     *                         no readable file or header, or memory cannot be read
     */
    static Fde find(SampleMemory mem, long ip) {
        MapGroup maps = mem.maps();
        MemMap map = maps.find(ip);
        if (map == null) {
            throw UnwindException.failed("no mapping at 0x" + Long.toHexString(ip));
        }
        DsoData d = mem.files().get(map.dso());
        if (d == null || !d.hasTable() || !d.has(d.hdrOffset(), HDR_BYTES)) {
            throw UnwindException.failed("no .eh_frame_hdr for " + map.dso());
        }
        long lowest = -1L;
        for (MemMap m : maps.all()) {
            if (m.dso().equals(map.dso()) && Long.compareUnsigned(m.start(), lowest) < 0) {
                lowest = m.start();
            }
        }
        long segbase = lowest - d.loadBase() + d.hdrAddr();
        int[] at = {4};
        headerValue(d, at, d.u8(d.hdrOffset() + 1));
        long count = headerValue(d, at, d.u8(d.hdrOffset() + 2));
        long table = segbase + at[0];
        long entry = lookup(mem, table, count, (int) (ip - segbase));
        if (entry < 0) {
            throw UnwindException.noInfo("no FDE for 0x" + Long.toHexString(ip));
        }
        CfiReader r = new CfiReader(mem, table + entry * 8 + 4);
        long fdeAddr = r.s32() + segbase;
        Fde fde = CfiParser.fde(mem, fdeAddr, false, 0);
        if (fde == null || !fde.covers(ip)) {
            throw UnwindException.noInfo("no FDE covers 0x" + Long.toHexString(ip));
        }
        return fde;
    }

    /** Binary search; @return the index of the last entry whose start is at or below {@code rel}, or -1 */
    private static long lookup(Memory mem, long table, long count, int rel) {
        long lo = 0;
        long hi = count;
        CfiReader r = new CfiReader(mem, table);
        while (Long.compareUnsigned(lo, hi) < 0) {
            long mid = (lo + hi) >>> 1;
            r.seek(table + mid * 8);
            if (rel < r.s32()) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if (hi == 0) {
            return -1;
        }
        r.seek(table + (hi - 1) * 8);
        r.s32();
        r.s32();
        if (Long.compareUnsigned(hi, count) < 0) {
            r.s32(); // libunwind reads the next entry's start as well, and fails when it cannot
        }
        return hi - 1;
    }

    /** perf's {@code __dw_read_encoded_value} on the 16 bytes after the header's first four. */
    private static long headerValue(DsoData d, int[] at, int enc) {
        if (enc == Dwarf.PE_OMIT) {
            return 0;
        }
        if (enc == 0x00) {
            return bytes(d, at, 8, false);
        }
        int app = enc & 0x70;
        if (app != 0x00 && app != 0x10) {
            throw UnwindException.failed(".eh_frame_hdr encoding 0x" + Integer.toHexString(enc));
        }
        if ((enc & 0x07) == 0) {
            enc |= 0x03;
        }
        return switch (enc & 0x0f) {
            case 0x03 -> bytes(d, at, 4, false);
            case 0x0b -> bytes(d, at, 4, true);
            case 0x04, 0x0c -> bytes(d, at, 8, false);
            default -> throw UnwindException.failed(".eh_frame_hdr encoding 0x" + Integer.toHexString(enc));
        };
    }

    private static long bytes(DsoData d, int[] at, int n, boolean signed) {
        if (at[0] + n > HDR_BYTES) {
            throw UnwindException.failed(".eh_frame_hdr header values run past its 20 bytes");
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) d.u8(d.hdrOffset() + at[0] + i) << (8 * i);
        }
        at[0] += n;
        return signed && n == 4 ? (int) v : v;
    }
}
