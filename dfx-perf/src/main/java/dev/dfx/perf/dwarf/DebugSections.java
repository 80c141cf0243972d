package dev.dfx.perf.dwarf;

import java.util.HashMap;
import java.util.Map;

/** The sections a DWARF reader needs, and the abbreviation tables read from them (cached by offset). */
final class DebugSections {
    final DwarfSection info;
    final DwarfSection abbrev;
    final DwarfSection str;
    final DwarfSection lineStr;
    final DwarfSection strOffsets;
    final DwarfSection addr;
    final DwarfSection rnglists;
    final DwarfSection ranges;
    final DwarfSection line;
    private final Map<Long, Abbrevs> abbrevs = new HashMap<>();

    DebugSections(DwarfSections s) {
        info = s.get(".debug_info");
        abbrev = s.get(".debug_abbrev");
        str = s.get(".debug_str");
        lineStr = s.get(".debug_line_str");
        strOffsets = s.get(".debug_str_offsets");
        addr = s.get(".debug_addr");
        rnglists = s.get(".debug_rnglists");
        ranges = s.get(".debug_ranges");
        line = s.get(".debug_line");
    }

    Abbrevs abbrevs(long offset) {
        Abbrevs a = abbrevs.get(offset);
        if (a == null) {
            a = Abbrevs.read(abbrev, offset);
            abbrevs.put(offset, a);
        }
        return a;
    }
}
