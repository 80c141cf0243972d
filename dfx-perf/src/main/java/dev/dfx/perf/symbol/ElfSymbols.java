package dev.dfx.perf.symbol;

import dev.dfx.perf.symbol.demangle.Demangler;
import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import java.util.List;

/**
 * The symbols perf 6.1 takes from a user-space ELF file ({@code dso__load_sym} and
 * {@code dso__synthesize_plt_symbols} of {@code util/symbol-elf.c}): named, defined function and object symbols,
 * and labels ({@code STT_NOTYPE}, not hidden) in sections whose name holds {@code text} or {@code data}, from
 * {@code .symtab} or, when the file has none, {@code .dynsym}; every value moved from a virtual address to a file
 * offset (perf's {@code adjust_symbols}, so that {@code map_ip = ip - map.start + pgoff} finds it) by the
 * {@code p_vaddr - p_offset} of the loaded file's PT_LOAD segment that holds it (the load bias; right for
 * {@code .bss} too), or, outside every segment, by its section's {@code sh_addr - sh_offset}; then one {@code name@plt} symbol per {@code .rela.plt} entry
 * laid out after the {@code .plt} header. Stateless.
 */
final class ElfSymbols {
    private static final int STT_NOTYPE = 0;
    private static final int STT_OBJECT = 1;
    private static final int STT_FUNC = 2;
    private static final int STT_GNU_IFUNC = 10;
    private static final int SHN_UNDEF = 0;
    private static final int SHN_ABS = 0xfff1;
    private static final int STV_INTERNAL = 1;
    private static final int STV_HIDDEN = 2;
    private static final int SHN_LORESERVE = 0xff00;

    private ElfSymbols() {
    }

    /**
     * @param syms    the file with the symbol table ({@code .symtab}, perhaps a separate debug file)
     * @param runtime the file as loaded (its {@code .dynsym}, {@code .plt}, and the section headers of sections
     *                the debug file has as NOBITS); may be {@code syms}
     * @param demangle whether C++ names are demangled ({@link Demangler}), before the fix-ups compare names as
     *                 perf's do
     * @return the symbols, fixed up, with the PLT entries
     * @throws dev.dfx.perf.symbol.elf.ElfException when a table lies outside its file
     */
    static SymbolTable load(ElfFile syms, ElfFile runtime, boolean demangle) {
        ElfSection table = symtab(syms);
        if (table == null) {
            return SymbolTable.EMPTY;
        }
        SymbolTable.Builder b = new SymbolTable.Builder();
        List<long[]> segments = runtime.loadSegments();
        syms.forEachSymbol(table, (index, name, value, size, info, other, shndx) -> {
            int type = info & 0xf;
            boolean named = !name.isEmpty() && shndx != SHN_UNDEF;
            boolean label = type == STT_NOTYPE && named && shndx != SHN_ABS && (other & 3) != STV_HIDDEN
                && (other & 3) != STV_INTERNAL;
            boolean keep = named && (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT);
            if ((!label && !keep) || shndx == SHN_ABS || shndx >= SHN_LORESERVE) {
                return;
            }
            ElfSection sec = syms.section(shndx);
            if (sec == null) {
                return;
            }
            if (sec.type() == ElfSection.NOBITS) {
                // a debug file's sections are NOBITS: their file offsets are the loaded file's
                ElfSection r = runtime.section(shndx);
                if (r != null) {
                    sec = r;
                }
            }
            if (label && !(sec.name().contains("text") || sec.name().contains("data"))) {
                return;
            }
            long[] load = segmentOf(segments, value);
            long start = value - (load != null ? load[0] - load[1] : sec.addr() - sec.offset());
            b.add(start, size == 0 ? start : start + size, info >>> 4, demangle ? Demangler.demangleOrSelf(name) : name,
                false, type == STT_OBJECT);
        });
        if (b.size() == 0) {
            return SymbolTable.EMPTY;
        }
        return b.build(false, plt(runtime, demangle));
    }

    /** {@code elf_read_program_header}: the first PT_LOAD segment whose {@code [p_vaddr, +size)} holds it. */
    private static long[] segmentOf(List<long[]> segments, long vaddr) {
        for (long[] s : segments) {
            if (s[2] != 0 && Long.compareUnsigned(vaddr, s[0]) >= 0 && Long.compareUnsigned(vaddr - s[0], s[2]) < 0) {
                return s;
            }
        }
        return null;
    }

    /** {@code .symtab} when the file has one of type SYMTAB, else {@code .dynsym} of type DYNSYM, else none. */
    static ElfSection symtab(ElfFile f) {
        ElfSection s = f.section(".symtab");
        if (s != null && s.type() == ElfSection.SYMTAB) {
            return s;
        }
        return dynsym(f);
    }

    static ElfSection dynsym(ElfFile f) {
        ElfSection d = f.section(".dynsym");
        return d != null && d.type() == ElfSection.DYNSYM ? d : null;
    }

    static boolean hasSymtab(ElfFile f) {
        ElfSection s = f.section(".symtab");
        return s != null && s.type() == ElfSection.SYMTAB;
    }

    /**
     * perf 6.1's PLT symbols: {@code .rela.plt} (or {@code .rel.plt}) linked to {@code .dynsym}, entries of
     * {@code .plt}'s {@code sh_entsize} after a header of the same size, at file offsets.
     */
    private static SymbolTable.Builder plt(ElfFile f, boolean demangle) {
        SymbolTable.Builder b = new SymbolTable.Builder();
        ElfSection dynsym = dynsym(f);
        if (dynsym == null) {
            return b;
        }
        ElfSection rel = f.section(".rela.plt");
        if (rel == null) {
            rel = f.section(".rel.plt");
        }
        ElfSection plt = f.section(".plt");
        if (rel == null || plt == null || rel.link() != dynsym.index() || rel.entsize() == 0
            || (rel.type() != ElfSection.RELA && rel.type() != ElfSection.REL)) {
            return b;
        }
        java.util.List<String> names = new java.util.ArrayList<>();
        f.forEachSymbol(dynsym, (index, name, value, size, info, other, shndx) -> names.add(name));
        long entry = plt.entsize();
        long offset = plt.offset() + entry;
        for (int sym : f.relocationSymbols(rel)) {
            String name = sym >= 0 && sym < names.size() ? names.get(sym) : "";
            b.add(offset, offset + entry, SymbolTable.GLOBAL, (demangle ? Demangler.demangleOrSelf(name) : name) + "@plt",
                false);
            offset += entry;
        }
        return b;
    }
}
