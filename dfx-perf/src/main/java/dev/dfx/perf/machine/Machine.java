package dev.dfx.perf.machine;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Comm;
import dev.dfx.perf.event.Mmap;
import dev.dfx.perf.event.Task;
import dev.dfx.perf.read.PerfRecord;
import java.util.HashMap;
import java.util.Map;

/**
 * perf's model of the recorded machine ({@code util/machine.c}, {@code util/thread.c}): threads with their
 * comms, per-process address spaces built from MMAP/MMAP2 records, and the kernel map from the
 * {@code [kernel.kallsyms]} MMAP. Fed COMM, FORK, EXIT and MMAP records in processing order; the idle
 * thread (tid 0) is registered as {@code swapper} as perf does. Not thread-safe.
 */
public final class Machine {
    /** {@code PERF_RECORD_MISC_CPUMODE}: kernel. */
    public static final int CPUMODE_KERNEL = 1;
    /** User. */
    public static final int CPUMODE_USER = 2;
    /** Hypervisor. */
    public static final int CPUMODE_HYPERVISOR = 3;
    /** Guest kernel. */
    public static final int CPUMODE_GUEST_KERNEL = 4;
    /** Guest user. */
    public static final int CPUMODE_GUEST_USER = 5;

    private static final String KERNEL_DSO = "[kernel.kallsyms]";

    private final Map<Integer, PerfThread> threads = new HashMap<>();
    /**
     * The thread of each tid looked up lately, by its low bits: a sample's thread is found without boxing its tid
     * and hashing. Holds only threads that {@link #threads} holds under their tid.
     */
    private final PerfThread[] recent = new PerfThread[RECENT_SLOTS];
    private static final int RECENT_SLOTS = 1024;
    private final MapGroup kernelMaps = new MapGroup();
    /** The kernel's own map ({@code [kernel.kallsyms]}) as its MMAP record gave it, or {@code null}. */
    private MemMap kernelMap;

    /** Creates a machine with the idle thread registered ({@code perf_session__register_idle_thread}). */
    public Machine() {
        PerfThread idle = findOrCreate(0, 0);
        idle.setComm("swapper");
    }

    /** @return the thread with {@code tid}, or {@code null} ({@code machine__find_thread}) */
    public PerfThread find(int pid, int tid) {
        PerfThread t = thread(tid);
        if (t != null) {
            updatePid(t, pid);
        }
        return t;
    }

    /** @return the thread with {@code tid}, created with comm {@code ":TID"} if new ({@code machine__findnew_thread}) */
    public PerfThread findOrCreate(int pid, int tid) {
        PerfThread t = thread(tid);
        if (t != null) {
            updatePid(t, pid);
            return t;
        }
        t = new PerfThread(pid, tid);
        threads.put(tid, t);
        recent[tid & (RECENT_SLOTS - 1)] = t;
        if (pid == tid || pid == -1) {
            t.setMaps(new MapGroup());
        } else {
            t.setMaps(findOrCreate(pid, pid).maps());
        }
        return t;
    }

    /** @return the thread registered under {@code tid}, or null */
    private PerfThread thread(int tid) {
        int slot = tid & (RECENT_SLOTS - 1);
        PerfThread t = recent[slot];
        if (t != null && t.tid() == tid) {
            return t;
        }
        t = threads.get(tid);
        if (t != null) {
            recent[slot] = t;
        }
        return t;
    }

    /** Unregisters the thread of {@code tid} ({@code machine__remove_thread}). */
    private void remove(int tid) {
        threads.remove(tid);
        recent[tid & (RECENT_SLOTS - 1)] = null;
    }

    /** {@code machine__update_thread_pid}: a thread first seen without a pid joins its process. */
    private void updatePid(PerfThread t, int pid) {
        if (pid == t.pid() || pid == -1 || t.pid() != -1) {
            return;
        }
        t.setPid(pid);
        if (pid == t.tid()) {
            return;
        }
        PerfThread leader = findOrCreate(pid, pid);
        t.setMaps(leader.maps());
    }

    /**
     * Applies a side-band record (COMM, FORK, EXIT, MMAP, MMAP2) in processing order; other types are ignored.
     *
     * @return for FORK, whether perf would report "removing erroneous parent thread"; else false
     */
    public boolean process(PerfRecord r) {
        switch (r.type()) {
            case RecordType.COMM -> comm(Comm.of(r));
            case RecordType.FORK -> {
                return fork(Task.of(r));
            }
            case RecordType.EXIT -> exit(Task.of(r));
            case RecordType.MMAP, RecordType.MMAP2 -> mmap(Mmap.of(r));
            default -> {
                // not side-band for the machine
            }
        }
        return false;
    }

    /** PERF_RECORD_COMM: sets the thread's comm. */
    public void comm(Comm c) {
        findOrCreate(c.pid(), c.tid()).setComm(c.comm());
    }

    /** PERF_RECORD_FORK; see {@link #fork(int, int, int, int, boolean)}. */
    public boolean fork(Task t) {
        return fork(t.pid(), t.tid(), t.ppid(), t.ptid(), !t.synthetic());
    }

    /** PERF_RECORD_EXIT; see {@link #exit(int, int)}. */
    public void exit(Task t) {
        exit(t.pid(), t.tid());
    }

    /** PERF_RECORD_MMAP/MMAP2; see {@link #mmap(int, int, int, long, long, long, boolean, String)}. */
    public void mmap(Mmap m) {
        mmap(m.cpumode(), m.pid(), m.tid(), m.start(), m.len(), m.pgoff(), m.exec(), m.hugetlb(), m.filename());
    }

    /**
     * PERF_RECORD_FORK: a new thread {@code tid} of process {@code pid}, child of {@code ptid}; it inherits the
     * parent's comm and, as a new process, a copy of its maps ({@code cloneMaps} false for synthesized forks,
     * PERF_RECORD_MISC_FORK_EXEC).
     *
     * @return whether perf would print "removing erroneous parent thread" (the parent was known under another pid)
     */
    public boolean fork(int pid, int tid, int ppid, int ptid, boolean cloneMaps) {
        PerfThread existing = find(pid, tid);
        boolean erroneousParent = false;
        PerfThread parent = findOrCreate(ppid, ptid);
        if (parent.pid() != ppid) {
            erroneousParent = true;
            remove(parent.tid());
            parent = findOrCreate(ppid, ptid);
        }
        if (existing != null && thread(tid) == existing) {
            remove(tid);
        }
        PerfThread child = findOrCreate(pid, tid);
        if (parent.commSet()) {
            child.setComm(parent.comm());
        }
        child.setPpid(parent.tid());
        if (child.pid() != parent.pid() && child.maps() != parent.maps() && cloneMaps) {
            for (MemMap m : parent.maps().all()) {
                child.maps().put(m);
            }
        }
        return erroneousParent;
    }

    /** PERF_RECORD_EXIT: marks the thread exited; it keeps its comm (perf 6.1 keeps exited threads). */
    public void exit(int pid, int tid) {
        PerfThread t = find(pid, tid);
        if (t != null) {
            t.markExited();
        }
    }

    /**
     * PERF_RECORD_MMAP / MMAP2.
     *
     * @param cpumode    {@code header.misc & 7}
     * @param exec       whether the mapping is executable (MMAP: not MISC_MMAP_DATA; MMAP2: PROT_EXEC)
     * @param hugetlb    whether the mapping has MAP_HUGETLB (anonymous memory to perf, {@code map__new})
     * @param filename   the mapped file or pseudo-file name
     */
    public void mmap(int cpumode, int pid, int tid, long start, long len, long pgoff, boolean exec, boolean hugetlb,
                     String filename) {
        if (kernelMode(cpumode)) {
            kernelMmap(start, len, pgoff, filename);
            return;
        }
        PerfThread t = findOrCreate(pid, tid);
        boolean anon = filename.equals("//anon") || filename.startsWith("/dev/zero")
            || filename.startsWith("/anon_hugepage") || hugetlb;
        boolean noDso = filename.startsWith("[stack") || filename.startsWith("/SYSV") || filename.equals("[heap]");
        String dso = filename;
        if ((anon || noDso) && exec) {
            dso = "/tmp/perf-" + t.pid() + ".map";
        }
        long off = filename.equals("[vdso]") ? 0 : pgoff;
        t.maps().insert(new MemMap(start, start + len, off, dso, anon || noDso));
    }

    private void kernelMmap(long start, long len, long pgoff, String filename) {
        if (kernelImage(filename)) {
            long end = start + len;
            if (start == 0 && end == 0) {
                end = -1L;
            }
            kernelMaps.clear();
            kernelMap = new MemMap(start, end, start, KERNEL_DSO, false);
            kernelMaps.put(kernelMap);
        } else {
            kernelMaps.insert(new MemMap(start, start + len, pgoff, kernelDsoName(filename), false));
        }
    }

    /**
     * The DSO name a frame carries for a mapped file: in a kernel cpumode, {@code [kernel.kallsyms]} for the kernel
     * image and {@code [name]} for a module given by its path ({@code /lib/modules/.../virtio-net.ko} is
     * {@code [virtio_net]}); otherwise, and for other kernel names, the name as given.
     *
     * @param cpumode  {@code header.misc & 7} of the MMAP record or BUILD_ID entry
     * @param filename its file name
     * @return the name of the DSO as {@link MemMap#dso()} gives it
     */
    public static String dsoName(int cpumode, String filename) {
        return kernelMode(cpumode) ? kernelDsoName(filename) : filename;
    }

    private static boolean kernelMode(int cpumode) {
        return cpumode == CPUMODE_KERNEL || cpumode == CPUMODE_GUEST_KERNEL;
    }

    private static String kernelDsoName(String filename) {
        if (kernelImage(filename)) {
            return KERNEL_DSO;
        }
        return filename.startsWith("/") ? "[" + moduleName(filename) + "]" : filename;
    }

    private static boolean kernelImage(String filename) {
        // perf compares all but the last character of "[kernel.kallsyms]" (machine__process_kernel_mmap_event)
        return filename.startsWith(KERNEL_DSO.substring(0, KERNEL_DSO.length() - 1))
            || filename.startsWith("[guest.kernel.kallsyms");
    }

    private static String moduleName(String path) {
        String base = path.substring(path.lastIndexOf('/') + 1);
        int dot = base.indexOf('.');
        return (dot > 0 ? base.substring(0, dot) : base).replace('-', '_');
    }

    /**
     * {@code thread__find_map}: the mapping of {@code addr} for the given cpumode.
     *
     * @return the mapping, or {@code null} (see {@link #isHypervisorLevel(int)} for how perf names a miss)
     */
    public MemMap findMap(PerfThread t, int cpumode, long addr) {
        if (cpumode == CPUMODE_KERNEL) {
            return kernelMaps.find(addr);
        }
        if (cpumode == CPUMODE_USER) {
            return t.maps() == null ? null : t.maps().find(addr);
        }
        return null;
    }

    /**
     * @return the kernel's own map as its MMAP record gave it (up to {@code _etext}; a symbolizer stretches it to
     *         the kernel's symbols, as perf fixes the map's ends once they are loaded), or {@code null}
     */
    public MemMap kernelMap() {
        return kernelMap;
    }

    /** @return whether perf files a lookup in this cpumode under level 'H' (printed {@code [hypervisor]}) */
    public static boolean isHypervisorLevel(int cpumode) {
        return cpumode != CPUMODE_KERNEL && cpumode != CPUMODE_USER;
    }
}
