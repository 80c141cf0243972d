package dev.dfx.perf.symbol;

import dev.dfx.perf.dwarf.DebugInfo;
import dev.dfx.perf.symbol.demangle.Demangler;
import dev.dfx.perf.symbol.elf.ElfException;
import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inlined frames as perf 6.1 adds them to a {@code --call-graph dwarf} callchain ({@code append_inlines} of
 * {@code util/machine.c}, {@code dso__parse_addr_inlines} of {@code util/srcline.c}, built without libbfd): for an
 * unwound address with a symbol, perf asks {@code addr2line -e FILE -i -f} about the address in the file's own
 * address space ({@code map__rip_2objdump}: the DSO-relative address plus the {@code .text} section's
 * {@code sh_addr - sh_offset}), where FILE is the first candidate with {@code .symtab} ({@code symsrc_filename}),
 * else the recorded path, and only when that file has {@code .debug_line}. When addr2line answers, each of its
 * records becomes one frame at the same address, innermost first: named by the record's function (demangled unless
 * {@code --no-demangle}), which is the address's own symbol when the names are equal and else a symbol of that name
 * over the same range marked inlined ({@code new_inline_sym}). dfx answers with its own DWARF reader
 * ({@link DebugInfo}) instead of running addr2line; where addr2line would name the function from the symbol table,
 * the address's own symbol is taken. Results are cached per DSO and address. Not thread-safe.
 */
public final class Inliner {
    private static final int CACHED_PER_DSO = 1 << 16;

    private final Symbolizer symbols;
    private final boolean demangle;
    private final Map<String, Source> sources = new HashMap<>();

    /** A DSO's debug information and its {@code .text} offset; {@code info} null when it has none. */
    private record Source(DebugInfo info, long textOffset, Map<Long, List<Symbol>> cache) {
    }

    private Inliner(Symbolizer symbols) {
        this.symbols = symbols;
        this.demangle = symbols.options().demangle();
    }

    /** @return an inliner for {@code symbols}, or {@code null} when its options resolve nothing or say --no-inline */
    public static Inliner of(Symbolizer symbols) {
        SymbolOptions o = symbols.options();
        return o.enabled() && o.inline() ? new Inliner(symbols) : null;
    }

    /**
     * @param at an unwound user-space address, resolved
     * @return its frames innermost first (the last is {@code at}'s own symbol unless addr2line names the outermost
     *         function otherwise), or {@code null} when perf prints {@code at} as it is
     */
    public List<Symbol> expand(Location at) {
        Symbol sym = at.symbol();
        if (at.map() == null || sym == null) {
            return null;
        }
        String dso = at.map().dso();
        if (dso.startsWith("[") || dso.startsWith("/tmp/perf-") || !dso.startsWith("/")) {
            return null;
        }
        Source src = sources.computeIfAbsent(dso, this::source);
        if (src.info() == null) {
            return null;
        }
        long addr = at.addr() + src.textOffset();
        List<Symbol> frames = src.cache().get(addr);
        if (frames == null) {
            // binutils' symbol search (_bfd_elf_find_function) is taken to find the frame's own symbol
            DebugInfo.ElfSymbol elfSymbol = new DebugInfo.ElfSymbol(sym.start() + src.textOffset(), sym.name());
            frames = frames(src.info().frames(addr, elfSymbol), sym);
            if (src.cache().size() >= CACHED_PER_DSO) {
                src.cache().clear();
            }
            src.cache().put(addr, frames);
        }
        return frames.isEmpty() ? null : frames;
    }

    private List<Symbol> frames(List<DebugInfo.Frame> records, Symbol sym) {
        List<Symbol> out = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            String f = records.get(i).function();
            String name = f == null || f.isEmpty() ? "??" : demangle ? Demangler.demangleOrSelf(f) : f;
            out.add(name.equals(sym.name()) ? sym : new Symbol(name, sym.start(), sym.end(), Symbol.Kind.INLINED));
        }
        return List.copyOf(out);
    }

    private Source source(String dso) {
        UserDsoFiles.Chosen c = symbols.userFiles(dso);
        ElfFile file = c.symtab();
        try {
            if (file == null) {
                Path p = Path.of(dso); // perf gives addr2line the recorded path (not below --symfs)
                if (!ElfFile.looksLikeElf(p)) {
                    return new Source(null, 0, null);
                }
                file = ElfFile.open(p);
            }
        } catch (ElfException | InvalidPathException e) {
            return new Source(null, 0, null);
        }
        ElfFile runtime = c.runtime() != null ? c.runtime() : file;
        ElfSection text = runtime.section(".text");
        long textOffset = text != null ? text.addr() - text.offset() : 0;
        DebugInfo info = DebugInfo.of(file, symbols::warn);
        return new Source(info, textOffset, new HashMap<>());
    }
}
