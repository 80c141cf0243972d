package dev.dfx.perf.dwarf;

import dev.dfx.perf.symbol.elf.ElfFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The DWARF debug information of one ELF file, asked as binutils' {@code addr2line -i -f} is asked by perf 6.1
 * (built without libbfd, perf runs that program per DSO): for an address, the innermost function holding it with
 * the file and line of the address, then each function it is inlined into with the file and line of the call.
 *
 * <p>Lazy and bounded: nothing is read before the first question; then the unit headers and their root entries
 * (to know which unit holds an address), and a unit's functions and line program only when an address falls in it
 * (at most {@value #UNITS_KEPT} units kept, least recently used dropped). Stateful as one addr2line process
 * is: the name given for a function without a linkage name depends on the questions asked before (see
 * {@link #frames}), so answers are not cached here. Tolerant: debug information that cannot be read gives one
 * warning naming the file, the section and the byte offset, and from then on no answers for this file; never an
 * exception or a read out of bounds. Not thread-safe.
 */
public final class DebugInfo {
    private static final int UNITS_KEPT = 128;
    /** Abstract-origin and specification chains longer than this are cut (binutils stops at 100 too). */
    private static final int MAX_ORIGIN_CHAIN = 100;
    /** Inline nesting beyond this is not reported (perf's {@code MAX_INLINE_NEST}). */
    private static final int MAX_INLINE_NEST = 1024;

    /**
     * One record of {@code addr2line -i -f}.
     *
     * @param function the function's name as addr2line prints it (the linkage name, else {@code DW_AT_name}, else
     *                 the symbol table's name as described at {@link #frames}); {@code null} where it prints
     *                 {@code ??}
     * @param file     the source file's path ({@code null}: addr2line prints {@code ??})
     * @param line     the line (0: unknown)
     */
    public record Frame(String function, String file, long line) {
    }

    /**
     * The symbol binutils' {@code _bfd_elf_find_function} finds for an address.
     *
     * @param value its start in the file's own address space ({@code st_value})
     * @param name  its name, as the caller wants it printed
     */
    public record ElfSymbol(long value, String name) {
    }

    private final ElfFile elf;
    private final Consumer<String> warn;
    private DebugSections sections;
    private List<Unit> units;
    /** {@code .debug_aranges} sorted by low address: low, high (exclusive), unit offset. */
    private long[][] aranges;
    private final Map<Long, Unit> unitsByOffset = new HashMap<>();
    private boolean broken;
    private final Map<Long, Object[]> unitData = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Object[]> eldest) {
            return size() > UNITS_KEPT;
        }
    };
    private final Map<Long, String> names = new HashMap<>();
    /**
     * binutils' per-function state ({@code is_linkage}, {@code name} of a {@code funcinfo}), by entry offset:
     * functions named without a linkage name that were already the innermost function of a question, and the
     * symbol names that replaced such a function's name.
     */
    private final Set<Long> searched = new HashSet<>();
    private final Map<Long, String> renamed = new HashMap<>();

    private DebugInfo(ElfFile elf, Consumer<String> warn) {
        this.elf = elf;
        this.warn = warn;
    }

    /**
     * @param elf  the file perf would give addr2line
     * @param warn takes one line when the file's debug information cannot be read
     * @return its debug information, or {@code null} when it has no {@code .debug_line} (perf then runs no
     *         addr2line: {@code filename__has_section})
     */
    public static DebugInfo of(ElfFile elf, Consumer<String> warn) {
        return new DwarfSections(elf).has(".debug_line") ? new DebugInfo(elf, warn) : null;
    }

    /**
     * Answers one question as the same addr2line process would (binutils 2.40's
     * {@code _bfd_dwarf2_find_nearest_line}): the innermost function named by a linkage name (or a {@code DW_AT_name}
     * of a language without mangling) is named so; one named otherwise (C++ {@code DW_AT_name} such as
     * {@code operator()}) is named, the first time it is the innermost function, by the symbol table's
     * {@code symbol}, and from then on by its {@code DW_AT_name}, unless that symbol started exactly at the
     * function's first range, in which case the function takes the symbol's name for good (also as the caller
     * of later answers). An address no function holds is named by {@code symbol}.
     *
     * @param addr   an address in the file's own virtual address space (objdump's, {@code sh_addr} based)
     * @param symbol the symbol table's symbol holding {@code addr}, or {@code null} for none
     * @return addr2line's records for it, innermost first; empty where addr2line finds no unit answering for it
     *         (it prints {@code ??} and {@code ??:0})
     */
    public List<Frame> frames(long addr, ElfSymbol symbol) {
        if (broken) {
            return List.of();
        }
        try {
            return lookup(addr, symbol);
        } catch (DwarfException e) {
            broken = true;
            warn.accept(e.getMessage() + "; no inline frames for this file");
            return List.of();
        }
    }

    private List<Frame> lookup(long addr, ElfSymbol symbol) {
        if (sections == null) {
            sections = new DebugSections(new DwarfSections(elf));
            aranges = Aranges.read(sections.aranges);
        }
        // .debug_aranges names the unit without reading every unit's header and abbreviations; the unit's own
        // ranges decide, and every unit is searched where the index is silent or wrong
        long indexed = Aranges.find(aranges, addr);
        if (indexed >= 0) {
            Unit u = unitAt(indexed);
            if (u != null && (u.ranges == null || contains(u.ranges, addr))) {
                List<Frame> f = inUnit(u, addr, symbol);
                if (!f.isEmpty()) {
                    return f;
                }
            }
        }
        if (units == null) {
            units = readUnits();
        }
        for (Unit u : units) {
            if (u.ranges != null && !contains(u.ranges, addr)) {
                continue;
            }
            List<Frame> f = inUnit(u, addr, symbol);
            if (!f.isEmpty()) {
                return f;
            }
        }
        return List.of();
    }

    private static boolean contains(long[] ranges, long addr) {
        for (int i = 0; i + 1 < ranges.length; i += 2) {
            if (Long.compareUnsigned(addr, ranges[i]) >= 0 && Long.compareUnsigned(addr, ranges[i + 1]) < 0) {
                return true;
            }
        }
        return false;
    }

    private List<Unit> readUnits() {
        List<Unit> out = new ArrayList<>();
        long off = 0;
        long size = sections.info.bytes().byteSize();
        while (off < size) {
            Unit u = unitAt(off);
            if (u.rootTag == Dw.TAG_COMPILE_UNIT || u.rootTag == Dw.TAG_PARTIAL_UNIT
                || u.rootTag == Dw.TAG_SKELETON_UNIT) {
                out.add(u);
            }
            off = u.end;
        }
        return out;
    }

    /** @return the unit at {@code offset} of .debug_info, read once; null for none there (a bad index entry) */
    private Unit unitAt(long offset) {
        Unit u = unitsByOffset.get(offset);
        if (u == null) {
            if (offset < 0 || offset >= sections.info.bytes().byteSize()) {
                return null;
            }
            u = Unit.read(sections, offset);
            unitsByOffset.put(offset, u);
        }
        return u;
    }

    private List<Frame> inUnit(Unit u, long addr, ElfSymbol symbol) {
        Object[] data = unitData.get(u.offset);
        if (data == null) {
            LineTable lines = u.stmtList >= 0 ? LineTable.read(u, u.stmtList) : null;
            data = new Object[] {Functions.read(u), lines};
            unitData.put(u.offset, data);
        }
        Functions fns = (Functions) data[0];
        LineTable lines = (LineTable) data[1];
        LineTable.Row row = lines != null ? lines.find(addr) : null;
        int f = fns.find(addr);
        if (row == null && f < 0) {
            return List.of();
        }
        List<Frame> out = new ArrayList<>();
        String file = row != null && lines != null ? lines.fileName(row.file()) : null;
        long line = row != null ? row.line() & 0xffffffffL : 0;
        String function = f >= 0 ? innermostName(u, fns, f, symbol) : symbol != null ? symbol.name() : null;
        out.add(new Frame(function, file, line));
        if (f >= 0 && fns.tags[f] == Dw.TAG_INLINED_SUBROUTINE) {
            for (int callee = f; fns.callers[callee] >= 0 && out.size() <= MAX_INLINE_NEST;
                 callee = fns.callers[callee]) {
                int caller = fns.callers[callee];
                String callFile = lines != null ? lines.fileName(fns.callFiles[callee]) : null;
                String r = renamed.get(fns.dieOffsets[caller]);
                out.add(new Frame(r != null ? r : strip(name(u, fns.dieOffsets[caller])), callFile,
                    fns.callLines[callee]));
            }
        }
        return List.copyOf(out);
    }

    /** The innermost function's name as addr2line gives it, updating binutils' state of the function. */
    private String innermostName(Unit u, Functions fns, int f, ElfSymbol symbol) {
        long die = fns.dieOffsets[f];
        String r = renamed.get(die);
        if (r != null) {
            return r;
        }
        String n = name(u, die);
        boolean linkage = n != null && (n.startsWith("L") || Dw.nameIsLinkage(u.language));
        if (linkage || !searched.add(die) || symbol == null) {
            return strip(n);
        }
        if (symbol.value() == fns.firstLows[f]) {
            renamed.put(die, symbol.name());
        }
        return symbol.name();
    }

    private static String strip(String n) {
        return n == null ? null : n.substring(1);
    }

    /**
     * The entry's name through its abstract-origin and specification chain: a linkage name where one is given
     * ({@code L} prefix), else {@code DW_AT_name} ({@code N} prefix); {@code null} without either.
     */
    private String name(Unit u, long die) {
        if (names.containsKey(die)) {
            return names.get(die);
        }
        String linkage = null;
        String plain = null;
        Die d = new Die();
        Unit unit = u;
        long at = die;
        for (int step = 0; step < MAX_ORIGIN_CHAIN && at >= 0; step++) {
            unit = unitOf(unit, at);
            if (unit == null) {
                break;
            }
            unit.readDie(sections.info.cursor(at), d);
            int l = d.find(Dw.AT_LINKAGE_NAME);
            if (l < 0) {
                l = d.find(Dw.AT_MIPS_LINKAGE_NAME);
            }
            if (l >= 0 && linkage == null) {
                linkage = unit.string(d, l);
            }
            int n = d.find(Dw.AT_NAME);
            if (n >= 0 && plain == null) {
                plain = unit.string(d, n);
            }
            if (linkage != null) {
                break;
            }
            int o = d.find(Dw.AT_ABSTRACT_ORIGIN);
            if (o < 0) {
                o = d.find(Dw.AT_SPECIFICATION);
            }
            at = o >= 0 ? unit.reference(d, o) : -1;
        }
        String r = linkage != null ? "L" + linkage : plain != null ? "N" + plain : null;
        names.put(die, r);
        return r;
    }

    private Unit unitOf(Unit hint, long offset) {
        if (offset >= hint.dieOffset && offset < hint.end) {
            return hint;
        }
        if (units == null) {
            units = readUnits();
        }
        int lo = 0;
        int hi = units.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Unit m = units.get(mid);
            if (offset < m.dieOffset) {
                hi = mid - 1;
            } else if (offset >= m.end) {
                lo = mid + 1;
            } else {
                return m;
            }
        }
        return null;
    }
}
