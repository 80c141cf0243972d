package dev.dfx.perf.symbol;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a {@link Symbolizer} looks for symbols, as perf's {@code symbol_conf}. Immutable.
 *
 * @param enabled    false: resolve nothing (every symbol is {@code [unknown]}, DSO names still print)
 * @param kallsyms   {@code -k/--kallsyms FILE}: kernel symbols from this file, used without a build-id check;
 *                   {@code null}: the running kernel's when the recording is of it, else perf's build-id cache
 * @param symfs      {@code --symfs DIR}: DSO paths are looked up below this folder (and the running kernel's
 *                   symbols are not used, as in perf); {@code null}: the root
 * @param buildIdDir perf's build-id cache ({@code ~/.debug}, perf's {@code --buildid-dir}); {@code null}: none
 * @param host       the running system's files that say which kernel runs and hold its symbols
 * @param demangle   whether user-space C++ names are demangled as perf does by default (perf's
 *                   {@code --no-demangle} turns it off); kernel symbols are never demangled, as perf's
 *                   {@code --demangle-kernel} is off by default
 * @param inline     whether the frames a {@code --call-graph dwarf} unwind finds are expanded into the functions
 *                   inlined at them, as perf 6.1 does by default from the DSO's debug information ({@code --inline};
 *                   {@code --no-inline} turns it off)
 */
public record SymbolOptions(boolean enabled, Path kallsyms, Path symfs, Path buildIdDir, Host host,
                            boolean demangle, boolean inline) {
    /** Options that demangle and expand inlined frames, as perf does by default. */
    public SymbolOptions(boolean enabled, Path kallsyms, Path symfs, Path buildIdDir, Host host) {
        this(enabled, kallsyms, symfs, buildIdDir, host, true, true);
    }

    /** Options that expand inlined frames, as perf does by default. */
    public SymbolOptions(boolean enabled, Path kallsyms, Path symfs, Path buildIdDir, Host host, boolean demangle) {
        this(enabled, kallsyms, symfs, buildIdDir, host, demangle, true);
    }

    /** Resolves nothing. */
    public static final SymbolOptions OFF = new SymbolOptions(false, null, null, null, Host.NONE);

    /** @return perf's defaults: the running kernel's symbols, DSOs at their recorded paths, {@code $HOME/.debug} */
    public static SymbolOptions defaults() {
        return new SymbolOptions(true, null, null, buildIdCache(System.getenv("HOME")), Host.RUNNING);
    }

    /**
     * perf's default build-id cache ({@code set_buildid_dir} in perf's config.c): {@code $HOME/.debug} from the
     * environment, not the password file's home (which is what Java's {@code user.home} reads), so that a run under
     * {@code sudo -E}, in CI or in a container looks where perf looks; {@code .debug} below the working directory
     * when {@code HOME} is unset, as perf.
     *
     * @param home the value of {@code HOME}, or null when it is unset
     * @return the cache folder
     */
    static Path buildIdCache(String home) {
        return home == null ? Path.of(".debug") : Path.of(home + "/.debug");
    }

    /**
     * The build-id cache perf 6.1 reads user-space DSOs from: {@code DIR/.debug} under {@code --symfs DIR} (perf's
     * {@code symbol__config_symfs} points the cache there, over {@code --buildid-dir}), else {@link #buildIdDir}.
     * Symbols and the bytes {@code --call-graph dwarf} unwinding reads both come from it first.
     *
     * @return the cache folder, or {@code null} when there is none
     */
    public Path userBuildIdDir() {
        return symfs != null ? Path.of(symfs.toString(), ".debug") : buildIdDir;
    }

    /**
     * A DSO's file in the build-id cache as perf 6.1's {@code dso__build_id_filename} names it: the link
     * {@code CACHE/.build-id/xx/rest} itself when it is a regular file (the cache's old layout), else
     * {@code CACHE/.build-id/xx/rest/BASENAME} (through the link into {@code CACHE/PATH/ID/}), with
     * {@code CACHE} the {@link #userBuildIdDir}.
     *
     * @param buildId  the DSO's build id in hex as the recording gives it
     * @param basename {@code elf}, {@code debug} or {@code vdso} (perf's {@code build_id_cache__basename})
     * @return the path (it may not exist), or {@code null} without a cache or a build id
     */
    public Path buildIdFile(String buildId, String basename) {
        Path dir = userBuildIdDir();
        if (dir == null || buildId == null || buildId.length() <= 2) {
            return null;
        }
        Path link = dir.resolve(".build-id").resolve(buildId.substring(0, 2)).resolve(buildId.substring(2));
        return Files.isRegularFile(link) ? link : link.resolve(basename);
    }

    /**
     * Checks the files these options name that dfx would otherwise open only when the first kernel address is
     * resolved: the {@code --kallsyms} file must be readable and no ELF file. A command calls it before it prints
     * anything, so a bad file is refused with no output, as perf refuses it.
     *
     * @return these options
     * @throws dev.dfx.error.BadInputException naming the option and file
     */
    public SymbolOptions checked() {
        if (enabled && kallsyms != null) {
            KallsymsFile.check(kallsyms, "--kallsyms ");
        }
        return this;
    }

    /** @return these options with {@code -k FILE} */
    public SymbolOptions withKallsyms(Path file) {
        return new SymbolOptions(enabled, file, symfs, buildIdDir, host, demangle, inline);
    }

    /** @return these options with {@code --symfs DIR} */
    public SymbolOptions withSymfs(Path dir) {
        return new SymbolOptions(enabled, kallsyms, dir, buildIdDir, host, demangle, inline);
    }

    /** @return these options with another build-id cache folder */
    public SymbolOptions withBuildIdDir(Path dir) {
        return new SymbolOptions(enabled, kallsyms, symfs, dir, host, demangle, inline);
    }

    /** @return these options reading the running system's kernel files from {@code host} */
    public SymbolOptions withHost(Host host) {
        return new SymbolOptions(enabled, kallsyms, symfs, buildIdDir, host, demangle, inline);
    }

    /** @return these options with inlined frames expanded or not ({@code --inline}, {@code --no-inline}) */
    public SymbolOptions withInline(boolean on) {
        return new SymbolOptions(enabled, kallsyms, symfs, buildIdDir, host, demangle, on);
    }

    /** @return these options with user-space demangling on or off ({@code --no-demangle}) */
    public SymbolOptions withDemangle(boolean on) {
        return new SymbolOptions(enabled, kallsyms, symfs, buildIdDir, host, on, inline);
    }

    /**
     * The running system's kernel files.
     *
     * @param kallsyms  its symbols ({@code /proc/kallsyms}); {@code null}: none
     * @param notes     its ELF notes with the GNU build id ({@code /sys/kernel/notes}); {@code null}: unknown
     * @param osrelease its release ({@code /proc/sys/kernel/osrelease}); {@code null}: unknown
     */
    public record Host(Path kallsyms, Path notes, Path osrelease) {
        /** This machine's running kernel. */
        public static final Host RUNNING = new Host(Path.of("/proc/kallsyms"), Path.of("/sys/kernel/notes"),
            Path.of("/proc/sys/kernel/osrelease"));
        /** No running kernel (recordings are never taken for the running kernel's). */
        public static final Host NONE = new Host(null, null, null);
    }
}
