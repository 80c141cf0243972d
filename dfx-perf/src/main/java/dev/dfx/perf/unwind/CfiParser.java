package dev.dfx.perf.unwind;

/**
 * Parses CIEs and FDEs of {@code .eh_frame} (LSB: CIE id 0, CIE pointers relative to themselves) and
 * {@code .debug_frame} (DWARF: CIE id all ones, CIE pointers relative to the section), 32- and 64-bit DWARF
 * formats, versions 1, 3 and 4, augmentations {@code z}, {@code L}, {@code R}, {@code P}, {@code S}; an unknown
 * augmentation letter ends the parsed augmentations, and is refused without {@code z}, as libunwind does
 * ({@code parse_cie}, {@code dwarf_extract_proc_info_from_fde}). Every read goes through a {@link CfiReader}, so a
 * corrupt entry fails with an {@link UnwindException}, never a read out of bounds. Stateless.
 */
final class CfiParser {
    private CfiParser() {
    }

    /**
     * @param mem        where the entry is
     * @param addr       address of the FDE's length field
     * @param debugFrame whether it is in {@code .debug_frame}
     * @param base       the address of the {@code .debug_frame} section (unused for {@code .eh_frame})
     * @return the FDE, or {@code null} when the entry is a CIE
     * @throws UnwindException {@link UnwindException.Kind#NO_INFO} for a zero length (a table terminator), else
     *                         {@link UnwindException.Kind#FAILED} for a malformed entry
     */
    static Fde fde(Memory mem, long addr, boolean debugFrame, long base) {
        CfiReader r = new CfiReader(mem, addr);
        long length = r.u32();
        long end;
        long cieAddr;
        if (length != 0xffff_ffffL) {
            if (length == 0) {
                throw UnwindException.noInfo("zero-length entry at 0x" + Long.toHexString(addr));
            }
            end = r.pos() + length;
            long idAddr = r.pos();
            int id = r.s32();
            if (debugFrame ? id == -1 : id == 0) {
                return null;
            }
            cieAddr = debugFrame ? base + Integer.toUnsignedLong(id) : idAddr - id;
        } else {
            end = r.pos() + 8 + r.u64();
            long idAddr = r.pos();
            long id = r.u64();
            if (debugFrame ? id == -1 : id == 0) {
                return null;
            }
            cieAddr = debugFrame ? base + id : idAddr - id;
        }
        Cie cie = cie(mem, cieAddr, debugFrame);
        long start = r.encoded(cie.fdeEncoding(), 0);
        long range = r.encoded(cie.fdeEncoding() & 0x0f, 0);
        long augEnd = 0;
        if (cie.sized()) {
            long size = r.uleb();
            augEnd = r.pos() + size;
        }
        r.encoded(cie.lsdaEncoding(), start);
        if (cie.signalFrame()) {
            r.u16(); // libunwind reads an ABI/tag pair after an 'S' CIE's LSDA
            r.u16();
        }
        long instr = cie.sized() ? augEnd : r.pos();
        return new Fde(start, start + range, instr, end, cie);
    }

    /**
     * @param mem        where the entry is
     * @param addr       address of the CIE's length field
     * @param debugFrame whether it is in {@code .debug_frame}
     * @return the CIE
     * @throws UnwindException when it is malformed or not a CIE
     */
    static Cie cie(Memory mem, long addr, boolean debugFrame) {
        CfiReader r = new CfiReader(mem, addr);
        long length = r.u32();
        long end;
        if (length != 0xffff_ffffL) {
            end = r.pos() + length;
            long id = r.u32();
            if (id != (debugFrame ? 0xffff_ffffL : 0)) {
                throw UnwindException.failed("no CIE at 0x" + Long.toHexString(addr));
            }
        } else {
            long len64 = r.u64();
            end = r.pos() + len64;
            long id = r.u64();
            if (id != (debugFrame ? -1L : 0)) {
                throw UnwindException.failed("no CIE at 0x" + Long.toHexString(addr));
            }
        }
        int version = r.u8();
        if (version != 1 && version != 3 && version != 4) {
            throw UnwindException.failed("CIE version " + version + " at 0x" + Long.toHexString(addr));
        }
        byte[] aug = new byte[4];
        int n = 0;
        for (int guard = 0; ; guard++) {
            int ch = r.u8();
            if (ch == 0) {
                break;
            }
            if (n < aug.length) {
                aug[n++] = (byte) ch;
            }
            if (guard > 4096) {
                throw UnwindException.failed("unterminated CIE augmentation at 0x" + Long.toHexString(addr));
            }
        }
        if (version == 4 && debugFrame) {
            r.u8(); // address_size
            r.u8(); // segment_selector_size
        }
        long codeAlign = r.uleb();
        long dataAlign = r.sleb();
        long ra = version == 1 ? r.u8() : r.uleb();
        int fdeEncoding = 0x04; // 8-byte absolute address
        int lsdaEncoding = Dwarf.PE_OMIT;
        boolean signal = false;
        boolean sized = false;
        int i = 0;
        if (n > 0 && aug[0] == 'z') {
            sized = true;
            r.uleb();
            i = 1;
        }
        parse:
        for (; i < n; i++) {
            switch (aug[i]) {
                case 'L' -> lsdaEncoding = r.u8();
                case 'R' -> fdeEncoding = r.u8();
                case 'P' -> r.encoded(r.u8(), 0);
                case 'S' -> signal = true;
                default -> {
                    if (sized) {
                        break parse;
                    }
                    throw UnwindException.failed("CIE augmentation '" + (char) aug[i] + "' unknown at 0x"
                        + Long.toHexString(addr));
                }
            }
        }
        return new Cie(codeAlign, dataAlign, ra, fdeEncoding, lsdaEncoding, signal, sized, r.pos(), end);
    }
}
