package dev.dfx.perf.dwarf;

import java.util.ArrayList;
import java.util.List;

/**
 * One unit of {@code .debug_info} (DWARF 2-5, 32- and 64-bit formats; DWARF 5 §7.5.1): its header, its abbreviation
 * table, and the bases its root entry gives ({@code DW_AT_str_offsets_base}, {@code DW_AT_addr_base},
 * {@code DW_AT_rnglists_base}, the base address, {@code DW_AT_stmt_list}, {@code DW_AT_comp_dir},
 * {@code DW_AT_language}); reads its entries and resolves their string, address and range forms. Not thread-safe.
 */
final class Unit {
    /** Unit types of DWARF 5; earlier versions have none (compile units). */
    private static final int UT_SKELETON = 4;
    private static final int UT_TYPE = 2;
    private static final int UT_SPLIT_COMPILE = 5;
    private static final int UT_SPLIT_TYPE = 6;
    /** Range lists longer than this are refused. */
    private static final int MAX_RANGES = 1 << 20;

    final DebugSections s;
    final long offset;
    final long end;
    final int version;
    final int offsetSize;
    final int addrSize;
    final long dieOffset;
    final Abbrevs abbrevs;
    long strOffsetsBase;
    long addrBase;
    long rnglistsBase;
    long baseAddress;
    long stmtList = -1;
    String compDir;
    int language;
    int rootTag;
    /** The root entry's address ranges, pairs {@code [low, high)}; {@code null} when it gives none. */
    long[] ranges;

    private Unit(DebugSections s, long offset, long end, int version, int offsetSize, int addrSize, long dieOffset,
                 Abbrevs abbrevs) {
        this.s = s;
        this.offset = offset;
        this.end = end;
        this.version = version;
        this.offsetSize = offsetSize;
        this.addrSize = addrSize;
        this.dieOffset = dieOffset;
        this.abbrevs = abbrevs;
    }

    /**
     * Reads the unit header at {@code offset} and its root entry.
     *
     * @return the unit; its {@link #end} is where the next one starts
     * @throws DwarfException when the header or root entry cannot be read
     */
    static Unit read(DebugSections s, long offset) {
        DwarfCursor c = s.info.cursor(offset);
        long end = c.initialLength("a unit");
        int offsetSize = c.offsetSize();
        int version = c.u16();
        if (version < 2 || version > 5) {
            throw c.error("DWARF version " + version + ", expected 2 to 5");
        }
        int unitType = 1;
        int addrSize;
        long abbrevOffset;
        if (version >= 5) {
            unitType = c.u8();
            addrSize = c.u8();
            abbrevOffset = c.unsigned(offsetSize);
            if (unitType == UT_SKELETON || unitType == UT_SPLIT_COMPILE) {
                c.u64();
            } else if (unitType == UT_TYPE || unitType == UT_SPLIT_TYPE) {
                c.u64();
                c.unsigned(offsetSize);
            }
        } else {
            abbrevOffset = c.unsigned(offsetSize);
            addrSize = c.u8();
        }
        if (addrSize != 4 && addrSize != 8) {
            throw c.error("address size " + addrSize + ", expected 4 or 8");
        }
        Unit u = new Unit(s, offset, end, version, offsetSize, addrSize, c.pos(), s.abbrevs(abbrevOffset));
        u.readRoot(unitType);
        return u;
    }

    private void readRoot(int unitType) {
        Die d = new Die();
        DwarfCursor c = s.info.cursor(dieOffset);
        if (!readDie(c, d)) {
            return;
        }
        rootTag = d.tag;
        if (unitType == UT_TYPE || unitType == UT_SPLIT_TYPE) {
            return;
        }
        // the bases first: other attributes of the root entry are read relative to them
        strOffsetsBase = constant(d, Dw.AT_STR_OFFSETS_BASE, version >= 5 ? 2L * offsetSize : 0);
        addrBase = constant(d, Dw.AT_ADDR_BASE, constant(d, Dw.AT_GNU_ADDR_BASE, 0));
        rnglistsBase = constant(d, Dw.AT_RNGLISTS_BASE, 0);
        int low = d.find(Dw.AT_LOW_PC);
        baseAddress = low >= 0 ? address(d, low) : 0;
        stmtList = constant(d, Dw.AT_STMT_LIST, -1);
        int dir = d.find(Dw.AT_COMP_DIR);
        compDir = dir >= 0 ? string(d, dir) : null;
        language = (int) constant(d, Dw.AT_LANGUAGE, 0);
        ranges = ranges(d);
    }

    private static long constant(Die d, int name, long otherwise) {
        int i = d.find(name);
        return i >= 0 ? d.values[i] : otherwise;
    }

    /**
     * Reads the entry at the cursor.
     *
     * @return false for a null entry (code 0: the end of a sibling list)
     */
    boolean readDie(DwarfCursor c, Die d) {
        d.clear(c.pos());
        if (c.atEnd(end)) {
            throw c.error("an entry past the end of its unit at " + end);
        }
        int code = c.ulebInt("abbreviation code");
        if (code == 0) {
            return false;
        }
        Abbrevs.Abbrev a = abbrevs.get(code);
        if (a == null) {
            throw s.info.error(d.offset, "abbreviation code " + code + " missing from its table");
        }
        d.tag = a.tag();
        d.children = a.children();
        for (int i = 0; i < a.names().length; i++) {
            int form = a.forms()[i];
            long v;
            long where = c.pos();
            if (form == Dw.FORM_IMPLICIT_CONST) {
                v = a.consts()[i];
            } else {
                int depth = 0;
                while (form == Dw.FORM_INDIRECT) {
                    form = c.ulebInt("indirect form");
                    if (++depth > 4) {
                        throw c.error("indirect forms nested too deep");
                    }
                }
                where = c.pos();
                v = value(c, form);
            }
            d.add(a.names()[i], form, v, where);
        }
        if (c.pos() > end) {
            throw s.info.error(d.offset, "an entry running past the end of its unit at " + end);
        }
        return true;
    }

    /** Reads one attribute value of {@code form}: as {@link Die} keeps it. */
    private long value(DwarfCursor c, int form) {
        return switch (form) {
            case Dw.FORM_ADDR -> c.unsigned(addrSize);
            case Dw.FORM_DATA1, Dw.FORM_REF1, Dw.FORM_FLAG, Dw.FORM_STRX1, Dw.FORM_ADDRX1 -> c.u8();
            case Dw.FORM_DATA2, Dw.FORM_REF2, Dw.FORM_STRX2, Dw.FORM_ADDRX2 -> c.u16();
            case Dw.FORM_STRX3, Dw.FORM_ADDRX3 -> c.u24();
            case Dw.FORM_DATA4, Dw.FORM_REF4, Dw.FORM_STRX4, Dw.FORM_ADDRX4, Dw.FORM_REF_SUP4 -> c.u32();
            case Dw.FORM_DATA8, Dw.FORM_REF8, Dw.FORM_REF_SIG8, Dw.FORM_REF_SUP8 -> c.u64();
            case Dw.FORM_DATA16 -> {
                c.skip(16);
                yield 0;
            }
            case Dw.FORM_SDATA -> c.sleb();
            case Dw.FORM_UDATA, Dw.FORM_REF_UDATA, Dw.FORM_STRX, Dw.FORM_ADDRX, Dw.FORM_LOCLISTX, Dw.FORM_RNGLISTX,
                Dw.FORM_GNU_ADDR_INDEX, Dw.FORM_GNU_STR_INDEX -> c.uleb();
            case Dw.FORM_STRING -> {
                long at = c.pos();
                c.cstring();
                yield at;
            }
            case Dw.FORM_STRP, Dw.FORM_LINE_STRP, Dw.FORM_SEC_OFFSET, Dw.FORM_STRP_SUP, Dw.FORM_GNU_REF_ALT,
                Dw.FORM_GNU_STRP_ALT -> c.unsigned(offsetSize);
            case Dw.FORM_REF_ADDR -> c.unsigned(version <= 2 ? addrSize : offsetSize);
            case Dw.FORM_FLAG_PRESENT -> 1;
            case Dw.FORM_BLOCK1 -> skipBlock(c, c.u8());
            case Dw.FORM_BLOCK2 -> skipBlock(c, c.u16());
            case Dw.FORM_BLOCK4 -> skipBlock(c, c.u32());
            case Dw.FORM_BLOCK, Dw.FORM_EXPRLOC -> skipBlock(c, c.uleb());
            default -> throw c.error("attribute form 0x" + Integer.toHexString(form) + " unknown");
        };
    }

    private static long skipBlock(DwarfCursor c, long length) {
        c.skip(length);
        return 0;
    }

    /** @return the {@code .debug_info} offset a reference attribute names, or -1 for one outside this file */
    long reference(Die d, int i) {
        return switch (d.forms[i]) {
            case Dw.FORM_REF1, Dw.FORM_REF2, Dw.FORM_REF4, Dw.FORM_REF8, Dw.FORM_REF_UDATA -> offset + d.values[i];
            case Dw.FORM_REF_ADDR -> d.values[i];
            default -> -1;
        };
    }

    /** @return the string attribute {@code i} of {@code d}, or {@code null} for one kept in another file */
    String string(Die d, int i) {
        long v = d.values[i];
        return switch (d.forms[i]) {
            case Dw.FORM_STRING -> s.info.stringAt(v, s.info, d.at[i]);
            case Dw.FORM_STRP -> s.str.stringAt(v, s.info, d.at[i]);
            case Dw.FORM_LINE_STRP -> s.lineStr.stringAt(v, s.info, d.at[i]);
            case Dw.FORM_STRX, Dw.FORM_STRX1, Dw.FORM_STRX2, Dw.FORM_STRX3, Dw.FORM_STRX4 -> {
                long entry = strOffsetsBase + v * offsetSize;
                if (v < 0 || v > Integer.MAX_VALUE || entry < 0
                    || entry > s.strOffsets.bytes().byteSize() - offsetSize) {
                    throw s.info.error(d.at[i], "string index " + Long.toUnsignedString(v)
                        + " past the end of .debug_str_offsets (" + s.strOffsets.bytes().byteSize() + " bytes)");
                }
                yield s.str.stringAt(s.strOffsets.cursor(entry).unsigned(offsetSize), s.strOffsets, entry);
            }
            default -> null;
        };
    }

    /** @return the address attribute {@code i} of {@code d} ({@code DW_FORM_addr} or an index into .debug_addr) */
    long address(Die d, int i) {
        return switch (d.forms[i]) {
            case Dw.FORM_ADDRX, Dw.FORM_ADDRX1, Dw.FORM_ADDRX2, Dw.FORM_ADDRX3, Dw.FORM_ADDRX4,
                Dw.FORM_GNU_ADDR_INDEX -> indexedAddress(d.values[i]);
            default -> d.values[i];
        };
    }

    private long indexedAddress(long index) {
        return s.addr.cursor(addrBase + index * addrSize).unsigned(addrSize);
    }

    private static boolean isConstant(int form) {
        return switch (form) {
            case Dw.FORM_DATA1, Dw.FORM_DATA2, Dw.FORM_DATA4, Dw.FORM_DATA8, Dw.FORM_UDATA, Dw.FORM_SDATA,
                Dw.FORM_IMPLICIT_CONST -> true;
            default -> false;
        };
    }

    /**
     * @return the entry's address ranges as pairs {@code [low, high)} from {@code DW_AT_low_pc}/{@code DW_AT_high_pc}
     *         (a constant high pc is a length) or {@code DW_AT_ranges}; {@code null} when it has neither
     */
    long[] ranges(Die d) {
        int r = d.find(Dw.AT_RANGES);
        if (r >= 0) {
            return rangeList(d, r);
        }
        int lo = d.find(Dw.AT_LOW_PC);
        int hi = d.find(Dw.AT_HIGH_PC);
        if (lo < 0 || hi < 0) {
            return null;
        }
        long low = address(d, lo);
        long high = isConstant(d.forms[hi]) ? low + d.values[hi] : address(d, hi);
        return new long[] {low, high};
    }

    private long[] rangeList(Die d, int i) {
        List<Long> out = new ArrayList<>();
        long v = d.values[i];
        if (version >= 5) {
            long at;
            if (d.forms[i] == Dw.FORM_RNGLISTX) {
                at = rnglistsBase + s.rnglists.cursor(rnglistsBase + v * offsetSize).unsigned(offsetSize);
            } else {
                at = v;
            }
            rnglist(s.rnglists.cursor(at), out);
        } else {
            debugRanges(s.ranges.cursor(v), out);
        }
        long[] a = new long[out.size()];
        for (int k = 0; k < a.length; k++) {
            a[k] = out.get(k);
        }
        return a;
    }

    private void rnglist(DwarfCursor c, List<Long> out) {
        long base = baseAddress;
        while (out.size() < MAX_RANGES) {
            int kind = c.u8();
            switch (kind) {
                case Dw.RLE_END_OF_LIST -> {
                    return;
                }
                case Dw.RLE_BASE_ADDRESSX -> base = indexedAddress(c.uleb());
                case Dw.RLE_STARTX_ENDX -> add(out, indexedAddress(c.uleb()), indexedAddress(c.uleb()));
                case Dw.RLE_STARTX_LENGTH -> {
                    long start = indexedAddress(c.uleb());
                    add(out, start, start + c.uleb());
                }
                case Dw.RLE_OFFSET_PAIR -> {
                    long start = base + c.uleb();
                    add(out, start, base + c.uleb());
                }
                case Dw.RLE_BASE_ADDRESS -> base = c.unsigned(addrSize);
                case Dw.RLE_START_END -> add(out, c.unsigned(addrSize), c.unsigned(addrSize));
                case Dw.RLE_START_LENGTH -> {
                    long start = c.unsigned(addrSize);
                    add(out, start, start + c.uleb());
                }
                default -> throw c.error("range list entry kind " + kind + " unknown");
            }
        }
        throw c.error("a range list of more than " + MAX_RANGES + " ranges");
    }

    private void debugRanges(DwarfCursor c, List<Long> out) {
        long base = baseAddress;
        long all = addrSize == 8 ? -1L : 0xffffffffL;
        while (out.size() < MAX_RANGES) {
            long start = c.unsigned(addrSize);
            long stop = c.unsigned(addrSize);
            if (start == 0 && stop == 0) {
                return;
            }
            if (start == all) {
                base = stop;
            } else {
                add(out, base + start, base + stop);
            }
        }
        throw c.error("a range list of more than " + MAX_RANGES + " ranges");
    }

    private static void add(List<Long> out, long low, long high) {
        if (Long.compareUnsigned(low, high) < 0) {
            out.add(low);
            out.add(high);
        }
    }
}
