package dev.dfx.perf.symbol;

import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Mmap;
import dev.dfx.perf.feature.FeatureReader;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.trace.KernelSymbols;
import dev.dfx.pmu.attr.AttrFlags;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Resolves addresses of a recording to symbols and DSOs as perf 6.1 does for {@code perf script} and
 * {@code perf report}: kernel addresses through kallsyms (the running kernel's {@code /proc/kallsyms} when the
 * recording is of the running kernel by build id, or by release when it has no kernel build id; else perf's
 * build-id cache; or the file {@code --kallsyms} names; a recording that names neither build id nor release takes the
 * running kernel's, as perf does), kernel modules as {@code [module]} from the same file, user
 * space through the DSOs' ELF files ({@code .symtab}, else {@code .dynsym}, PLT entries as {@code name@plt}) found
 * as {@code perf} finds them ({@link SymbolOptions}), the vDSO through the image {@code perf record} cached by its
 * build id, JIT code through {@code /tmp/perf-PID.map}.
 *
 * <p>Use: create one per session, pass every record in processing order to {@link #observe(PerfRecord)} (it
 * reads HEADER_BUILD_ID and MMAP records; feed the same records to the {@link Machine}), and resolve sample and
 * callchain addresses with {@link #resolve}. Symbols are loaded lazily, once per DSO, on the first lookup in it,
 * and kept in sorted arrays ({@link SymbolTable}: binary search, no allocation per lookup); the last location of
 * each of 16 Ki address slots is kept, so a repeated address costs one array probe. Files that cannot be
 * used give one warning each ({@link #warnings()}), never an exception: a DSO without usable symbols resolves
 * to {@code [unknown]} as in perf.
 *
 * <p>Not thread-safe: one thread feeds and queries it.
 */
public final class Symbolizer {
    private static final String KERNEL = "[kernel.kallsyms]";
    private static final String PERF_MAP = "/tmp/perf-";

    /** log2 of the location cache's slots (16 Ki: 256 KiB of arrays). */
    private static final int CACHE_BITS = 14;

    private final SymbolOptions opt;
    private final String osRelease;
    /**
     * The location cache: slot by address. A location depends only on its mapping (compared by identity: a
     * MemMap is one MMAP record's mapping) and address, once the DSO's symbols are loaded, which computing it does.
     * Made by the first lookup: a listing that resolves no address (a tracepoint listing without ip or sym) does not
     * zero 256 KiB of fresh heap at its start.
     */
    private long[] cachedIps;
    private MemMap[] cachedMaps;
    private Location[] cachedLocations;
    private final BuildIds buildIds = new BuildIds();
    private final Map<String, SymbolTable> user = new HashMap<>();
    private final Map<MemMap, SymbolTable> modules = new HashMap<>();
    private final Set<String> warnings = new LinkedHashSet<>();
    private final Set<String> moduleNames = new java.util.HashSet<>();
    private String refName;
    private long refAddr;
    private boolean kernelLoaded;
    private SymbolTable kernel = SymbolTable.EMPTY;
    private KallsymsFile kallsyms;
    /** The kernel's symbols being loaded on another thread ({@link #prefetchKernel}), or null. */
    private KernelPrefetch prefetch;

    private Symbolizer(SymbolOptions opt, String osRelease) {
        this.opt = opt;
        this.osRelease = osRelease;
    }

    /**
     * @param session the recording (its BUILD_ID and OSRELEASE features are read now; pipe-mode build ids arrive
     *                through {@link #observe(PerfRecord)})
     * @param options where to look for symbols
     * @return a symbolizer for the session
     */
    public static Symbolizer create(PerfSession session, SymbolOptions options) {
        Map<Integer, MemorySegment> feats = session.features();
        MemorySegment os = feats.get(Feature.OSRELEASE.bit());
        String release = os == null ? null : new FeatureReader(os, session.file().endian()).string();
        Symbolizer s = new Symbolizer(options, release);
        MemorySegment ids = feats.get(Feature.BUILD_ID.bit());
        if (ids != null) {
            s.buildIds.addFeature(ids, session.file().endian());
        }
        return s;
    }

    /**
     * Takes a record in processing order: HEADER_BUILD_ID and MMAP2 build ids, and the kernel's MMAP, whose
     * {@code pgoff} is the recorded address of its reference symbol ({@code [kernel.kallsyms]_text}): kernel
     * symbols are moved by the difference to that symbol in the kallsyms file (a kernel relocated at boot).
     */
    public void observe(PerfRecord r) {
        int type = r.type();
        if (type == RecordType.HEADER_BUILD_ID || type == RecordType.MMAP2) {
            buildIds.observe(r);
        }
        if (type == RecordType.MMAP || type == RecordType.MMAP2) {
            int cpumode = r.misc() & 7;
            if (cpumode == Machine.CPUMODE_KERNEL) {
                Mmap m = Mmap.of(r);
                if (m.filename().startsWith(KERNEL)) {
                    refName = m.filename().substring(KERNEL.length());
                    refAddr = m.pgoff();
                }
            }
        }
    }

    /**
     * {@code thread__find_symbol}: the mapping of {@code ip} in the thread's address space for {@code cpumode}
     * ({@link Machine#findMap}) and the symbol in it. Once the kernel's symbols are loaded, the kernel map spans
     * them, as perf fixes its ends to them: an address outside them has no mapping, and one past the recorded
     * map (init text such as {@code start_kernel}, after {@code _etext}) that no module map holds is the
     * kernel's.
     *
     * @param cpumode {@link Machine#CPUMODE_KERNEL}, {@link Machine#CPUMODE_USER}, ...
     */
    public Location resolve(Machine machine, PerfThread thread, int cpumode, long ip) {
        return locate(findMap(machine, thread, cpumode, ip), ip);
    }

    /**
     * {@code thread__find_map}: the mapping of {@code ip} as {@link #resolve} finds it (the kernel map spanning the
     * kernel's symbols once they are loaded), for every address perf looks up so: sample ips, callchain entries
     * and a sample's {@code addr}.
     *
     * @param cpumode {@link Machine#CPUMODE_KERNEL}, {@link Machine#CPUMODE_USER}, ...
     * @return the mapping, or {@code null}
     */
    public MemMap findMap(Machine machine, PerfThread thread, int cpumode, long ip) {
        MemMap map = machine.findMap(thread, cpumode, ip);
        if (map == null && cpumode == Machine.CPUMODE_KERNEL && kernelLoaded && kernel.size() > 0
            && Long.compareUnsigned(ip, kernel.start()) >= 0 && Long.compareUnsigned(ip, kernel.end()) < 0) {
            map = machine.kernelMap();
        }
        return map;
    }

    /**
     * @param map the mapping {@code ip} falls in, or {@code null}
     * @return the location of {@code ip} in {@code map}
     */
    public Location locate(MemMap map, long ip) {
        if (map == null) {
            return new Location(ip, null, null);
        }
        // a profile's callchains repeat the same few thousand addresses: a direct-mapped cache of the last location
        // per slot answers most lookups without the DSO checks, the table search and a new Location
        if (cachedMaps == null) {
            cachedIps = new long[1 << CACHE_BITS];
            cachedMaps = new MemMap[1 << CACHE_BITS];
            cachedLocations = new Location[1 << CACHE_BITS];
        }
        int slot = (int) ((ip * 0x9E3779B97F4A7C15L) >>> (64 - CACHE_BITS));
        if (cachedMaps[slot] == map && cachedIps[slot] == ip) {
            return cachedLocations[slot];
        }
        Location l = locateUncached(map, ip);
        cachedIps[slot] = ip;
        cachedMaps[slot] = map;
        cachedLocations[slot] = l;
        return l;
    }

    private Location locateUncached(MemMap map, long ip) {
        if (KERNEL.equals(map.dso())) {
            SymbolTable k = kernel();
            if (k.size() > 0 && (Long.compareUnsigned(ip, k.start()) < 0 || Long.compareUnsigned(ip, k.end()) >= 0)) {
                return new Location(ip, null, null);
            }
            return new Location(ip, map, k.find(map.mapIp(ip)));
        }
        return new Location(ip, map, find(map, ip));
    }

    /**
     * @param map a mapping (user space or kernel)
     * @param ip  a run-time address inside it
     * @return the symbol holding {@code ip}, or {@code null}
     */
    public Symbol find(MemMap map, long ip) {
        if (!opt.enabled()) {
            return null;
        }
        String dso = map.dso();
        if (KERNEL.equals(dso)) {
            return kernel().find(map.mapIp(ip));
        }
        if (dso.startsWith("[") && !dso.equals("[vdso]") && isKernelModule(dso)) {
            return module(map).find(map.mapIp(ip));
        }
        SymbolTable t = user.get(dso);
        if (t == null) {
            t = loadUser(dso);
            user.put(dso, t);
        }
        return t.find(map.mapIp(ip));
    }

    /**
     * @param machine the machine whose kernel maps place an address
     * @return a resolver of kernel addresses for tracepoint {@code %ps}/{@code %pS}
     *         ({@code machine__resolve_kernel_addr}): the symbol's absolute start
     */
    public KernelSymbols kernelSymbols(Machine machine) {
        return addr -> {
            Location l = resolve(machine, null, Machine.CPUMODE_KERNEL, addr);
            if (l.symbol() == null) {
                return null;
            }
            return new KernelSymbols.Symbol(l.symbol().name(), addr - l.symbolOffset());
        };
    }

    /**
     * @param dso a DSO's long name, as {@link MemMap#dso()} holds it
     * @return the build id the recording names for it (lower-case hex), or {@code null}
     */
    public String buildId(String dso) {
        return buildIds.of(dso);
    }

    /** @return one line per file that could not be used, each once, in the order met */
    public List<String> warnings() {
        return new ArrayList<>(warnings);
    }

    private boolean isKernelModule(String dso) {
        kernel();
        return moduleNames.contains(dso);
    }

    private SymbolTable module(MemMap map) {
        SymbolTable t = modules.get(map);
        if (t != null) {
            return t;
        }
        SymbolTable.Builder b = new SymbolTable.Builder();
        SymbolTable all = kallsyms.symbols();
        for (int i = 0; i < all.size(); i++) {
            if (map.dso().equals(kallsyms.module(i))) {
                Symbol s = all.get(i);
                b.add(map.mapIp(s.start()), map.mapIp(s.end()), SymbolTable.GLOBAL, s.name(), false, s.object());
            }
        }
        t = b.sorted();
        modules.put(map, t);
        return t;
    }

    private SymbolTable kernel() {
        if (kernelLoaded) {
            return kernel;
        }
        kernelLoaded = true;
        if (!opt.enabled()) {
            return kernel;
        }
        Path file = kallsymsPath();
        if (file == null) {
            if (opt.symfs() == null) {
                String id = buildIds.of(KERNEL);
                warnings.add(id != null ? "No kallsyms or vmlinux with build-id " + id + " was found"
                    : "no kernel symbols for kernel " + osRelease + " (the recording has no kernel build id and"
                        + " another kernel runs); give them with --kallsyms FILE");
            }
            return kernel;
        }
        KernelLoad loaded = kernelLoad(file);
        KallsymsFile k = loaded.file();
        if (!k.usable()) {
            warnings.add(file + ": every address is 0 (kptr_restrict hides kernel addresses from this user);"
                + " kernel symbols are not resolved");
            return kernel;
        }
        long delta = 0;
        if (refName != null && !refName.isEmpty()) {
            if (k.text() == null && refName.equals("_text")) {
                if (k.symbols().size() > 0) {
                    warnings.add(file + ": no _text symbol to place the kernel; kernel symbols are not"
                        + " resolved");
                }
                return kernel;
            }
            delta = k.text() == null ? 0 : k.text() - refAddr;
        }
        kallsyms = k;
        moduleNames.addAll(java.util.Arrays.asList(k.heldModules()));
        kernel = delta == 0 && loaded.unmoved() != null ? loaded.unmoved() : kernelTable(k, delta);
        return kernel;
    }

    /** @return the kernel's own symbols of {@code k} (its modules' left out), moved down by {@code delta} */
    private static SymbolTable kernelTable(KallsymsFile k, long delta) {
        int[] moduleIds = k.moduleIds();
        int n = moduleIds.length;
        int[] own = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (moduleIds[i] < 0) {
                own[m++] = i;
            }
        }
        return k.symbols().select(java.util.Arrays.copyOf(own, m), delta);
    }

    /**
     * A loaded kallsyms file and, when it is usable, the kernel's table made from it for a kernel that was not
     * relocated (the usual case: the recording's reference symbol where the file has it).
     */
    private record KernelLoad(KallsymsFile file, SymbolTable unmoved) {
        static KernelLoad of(Path path, String option) {
            KallsymsFile k = KallsymsFile.load(path, option);
            return new KernelLoad(k, k.usable() ? kernelTable(k, 0) : null);
        }
    }

    /** A {@link KernelLoad} of {@code file} under way on a thread of its own. */
    private record KernelPrefetch(Path file, FutureTask<KernelLoad> task) {
    }

    /**
     * Starts loading the kernel's symbols on another thread, so that the first kernel address resolved does not wait
     * for the whole kallsyms file to be read and sorted (a running kernel's has some 120 thousand lines) while the
     * caller reads the recording's first records on this one. Only where every sample will be resolved (a
     * profile), the recording can hold kernel samples (an event without {@code exclude_kernel}) and the kallsyms
     * file is known before the records are read (not in pipe mode, whose build ids come with the records); where
     * the first kernel lookup then settles on another file, that file is loaded as before. Call before the first
     * lookup.
     *
     * @param session the recording this symbolizer was made for
     */
    public void prefetchKernel(PerfSession session) {
        if (!opt.enabled() || kernelLoaded || prefetch != null || session.file().pipe()) {
            return;
        }
        boolean kernelSamples = false;
        for (var e : session.evlist().all()) {
            kernelSamples |= (e.attr().flags() & AttrFlags.EXCLUDE_KERNEL) == 0;
        }
        Path file = kernelSamples ? kallsymsPath() : null;
        if (file == null) {
            return;
        }
        String option = kallsymsOption();
        FutureTask<KernelLoad> task = new FutureTask<>(() -> KernelLoad.of(file, option));
        Thread.ofPlatform().name("dfx-kallsyms").daemon().start(task);
        prefetch = new KernelPrefetch(file, task);
    }

    /**
     * @return the load of {@code file}: the one {@link #prefetchKernel} started when it is of the same file (its
     *         errors thrown here), else one made now
     */
    private KernelLoad kernelLoad(Path file) {
        KernelPrefetch p = prefetch;
        prefetch = null;
        if (p != null && p.file().equals(file)) {
            try {
                return p.task().get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error r) {
                    throw r;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return KernelLoad.of(file, kallsymsOption());
    }

    private String kallsymsOption() {
        return opt.kallsyms() != null ? "--kallsyms " : "";
    }

    /**
     * {@code dso__load_kernel_sym} and {@code dso__find_kallsyms} without vmlinux and kcore.
     *
     * @return the kallsyms file of the recording's kernel, or null where none is found
     */
    private Path kallsymsPath() {
        if (opt.kallsyms() != null) {
            return opt.kallsyms();
        }
        if (opt.symfs() != null) {
            return null;
        }
        String id = buildIds.of(KERNEL);
        SymbolOptions.Host host = opt.host();
        boolean running;
        if (id != null) {
            running = id.equals(hostBuildId(host.notes()));
        } else {
            // perf takes the running kernel's as a last resort; dfx not when the recording names another release
            running = osRelease == null || osRelease.equals(readTrimmed(host.osrelease()));
        }
        if (running && host.kallsyms() != null) {
            return host.kallsyms();
        }
        if (id != null && opt.buildIdDir() != null) {
            Path cached = opt.buildIdDir().resolve(KERNEL).resolve(id).resolve("kallsyms");
            if (Files.isRegularFile(cached)) {
                return cached;
            }
        }
        return null;
    }

    private static String hostBuildId(Path notes) {
        if (notes == null) {
            return null;
        }
        try {
            byte[] b = Files.readAllBytes(notes);
            return dev.dfx.perf.symbol.elf.ElfFile.buildIdNote(MemorySegment.ofArray(b),
                ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.nativeOrder()));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String readTrimmed(Path p) {
        if (p == null) {
            return null;
        }
        try {
            return Files.readString(p, StandardCharsets.ISO_8859_1).trim();
        } catch (IOException e) {
            return null;
        }
    }

    /** @return the options this symbolizer was made with */
    public SymbolOptions options() {
        return opt;
    }

    /**
     * The files {@code dso__load} settles on for a user-space DSO (see {@link UserDsoFiles#choose}); opens them
     * again, so callers cache the result.
     */
    UserDsoFiles.Chosen userFiles(String dso) {
        return UserDsoFiles.choose(dso, buildIds.of(dso), opt, warnings::add);
    }

    /** Adds one line for {@link #warnings()}. */
    void warn(String line) {
        warnings.add(line);
    }

    private SymbolTable loadUser(String dso) {
        try {
            if (dso.startsWith(PERF_MAP) && dso.endsWith(".map")) {
                return PerfMapFile.load(Path.of(dso), warnings::add);
            }
            if (!dso.startsWith("/") && !dso.equals(UserDsoFiles.VDSO)) {
                return SymbolTable.EMPTY;
            }
            return UserDsoFiles.load(dso, buildIds.of(dso), opt, warnings::add);
        } catch (InvalidPathException e) {
            return SymbolTable.EMPTY;
        }
    }
}
