package dev.dfx.perf.symbol;

import dev.dfx.perf.symbol.elf.ElfException;
import dev.dfx.perf.symbol.elf.ElfFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Finds and reads a user-space DSO's symbols as perf 6.1's {@code dso__load} does: candidate files in perf's
 * order (build-id cache {@code elf} and {@code debug} ({@link SymbolOptions#buildIdFile}),
 * {@code /usr/lib/debug/PATH.debug}, {@code /usr/lib/debug/PATH}, {@code /usr/lib/debug/.build-id/xx/rest.debug},
 * then {@code PATH} itself; with {@code --symfs DIR} all below that folder, the cache being {@code DIR/.debug}),
 * each refused when its build id differs from the one the recording gives the DSO; the first with {@code .symtab}
 * gives the symbols, the first with {@code .dynsym} the run-time layout and PLT. The vDSO ({@code [vdso]}) has one
 * candidate: the image {@code perf record} put in the build-id cache ({@code CACHE/.build-id/xx/rest/vdso}) when the
 * recording gives its build id, else (pipe mode) this process's own vDSO ({@link OwnVdso}) unless {@code --symfs}
 * is given. Stateless.
 */
final class UserDsoFiles {
    /** The vDSO's name in MMAP records; its symbols exist only in the build-id cache. */
    static final String VDSO = "[vdso]";

    private UserDsoFiles() {
    }

    /**
     * @param dso     the DSO's long name (an absolute path as recorded, or {@code [vdso]})
     * @param buildId its build id from the recording, or {@code null}
     * @param warn    takes one line per file that exists but is not a well-formed ELF file
     * @return its symbols, or {@link SymbolTable#EMPTY}
     */
    static SymbolTable load(String dso, String buildId, SymbolOptions opt, Consumer<String> warn) {
        Chosen c = choose(dso, buildId, opt, warn);
        if (c.runtime() == null) {
            return SymbolTable.EMPTY;
        }
        try {
            return ElfSymbols.load(c.symtab() != null ? c.symtab() : c.runtime(), c.runtime(), opt.demangle());
        } catch (ElfException e) {
            warn.accept(e.getMessage());
            return SymbolTable.EMPTY;
        }
    }

    /**
     * The files {@code dso__load} settles on.
     *
     * @param symtab  the first candidate with {@code .symtab} (perf's {@code symsrc_filename}, the file it gives
     *                addr2line), or {@code null}
     * @param runtime the first with {@code .dynsym}, else {@code symtab}; {@code null} when no candidate has symbols
     */
    record Chosen(ElfFile symtab, ElfFile runtime) {
    }

    /** @return the DSO's symbol files in perf's order, as {@link #load} reads them */
    static Chosen choose(String dso, String buildId, SymbolOptions opt, Consumer<String> warn) {
        String id = buildId;
        if (id == null && dso.startsWith("/")) {
            ElfFile own = open(symfs(opt, dso), warn);
            id = own == null ? null : own.buildId();
        }
        ElfFile syms = null;
        ElfFile runtime = null;
        for (Path p : candidates(dso, id, opt)) {
            ElfFile f = open(p, warn);
            if (f == null || id != null && !id.equals(f.buildId())) {
                continue;
            }
            if (syms == null && ElfSymbols.hasSymtab(f)) {
                syms = f;
            }
            if (runtime == null && ElfSymbols.dynsym(f) != null) {
                runtime = f;
            }
            if (syms != null && runtime != null) {
                break;
            }
        }
        return new Chosen(syms, runtime != null ? runtime : syms);
    }

    private static List<Path> candidates(String dso, String id, SymbolOptions opt) {
        List<Path> out = new ArrayList<>();
        if (dso.equals(VDSO)) {
            if (id != null) {
                // the image perf record copied from its own process (perf's build_id_cache__basename: "vdso")
                addIfNamed(out, opt.buildIdFile(id, "vdso"));
            } else if (opt.symfs() == null) {
                // no build id (pipe mode): perf reads its own process's vDSO, a file below no --symfs folder
                addIfNamed(out, OwnVdso.image());
            }
            return out;
        }
        addIfNamed(out, opt.buildIdFile(id, "elf"));
        addIfNamed(out, opt.buildIdFile(id, "debug"));
        out.add(symfs(opt, "/usr/lib/debug" + dso + ".debug"));
        out.add(symfs(opt, "/usr/lib/debug" + dso));
        if (id != null && id.length() > 2) {
            out.add(symfs(opt, "/usr/lib/debug/.build-id/" + id.substring(0, 2) + "/" + id.substring(2) + ".debug"));
        }
        out.add(symfs(opt, dso));
        return out;
    }

    private static void addIfNamed(List<Path> out, Path p) {
        if (p != null) {
            out.add(p);
        }
    }

    static Path symfs(SymbolOptions opt, String path) {
        return opt.symfs() == null ? Path.of(path) : Path.of(opt.symfs().toString() + path);
    }

    private static ElfFile open(Path p, Consumer<String> warn) {
        if (!ElfFile.looksLikeElf(p)) {
            return null;
        }
        try {
            return ElfFile.open(p);
        } catch (ElfException e) {
            warn.accept(e.getMessage());
            return null;
        }
    }
}
