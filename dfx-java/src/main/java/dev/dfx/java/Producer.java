package dev.dfx.java;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This JVM's producer: the attached region, the lanes it has claimed, and which thread writes which lane.
 *
 * <ul>
 *   <li>A platform thread claims a lane of kind 0 at its first record (CAS of the lane's owner word from 0 to
 *       {@code (pid << 32) | tid}, the tid read from {@code /proc/thread-self}) and keeps it for its life. The lane
 *       carries the thread's name (cut to 15 bytes of UTF-8 at a character boundary), written at the claim and again
 *       when the lane ends, or the name the program gave ({@link Dfx#threadName}). When no lane is free, a lane whose
 *       thread has ended ({@link Thread#isAlive()} false) is taken over (and named after its new thread); when there
 *       is none either, the thread's records are counted in the header's {@code unlanedDropped}, as dfx.h does.
 *       The lane is found through a thread local, and found again by owner when the thread's locals were erased
 *       (the common ForkJoinPool's workers erase theirs between tasks), so a thread never claims two.</li>
 *   <li>Virtual threads share a few lanes (at most one per CPU, as many as the default scheduler has carriers):
 *       a virtual thread takes one for a single write ({@link Lane#tryLock()}) and gives it back, so a virtual
 *       thread that parks never holds a lane, and ten thousand of them need no more lanes than carriers (each such
 *       lane is named {@value #SHARED_LANE_NAME}). Their writes are self-contained (complete slices, instants,
 *       counters, flow points with explicit times), since consecutive writes of one virtual thread may land on
 *       different lanes.</li>
 *   <li>At JVM exit (a shutdown hook) the lanes of ended threads and of the exiting thread are flushed and
 *       detached, the shared lanes not in use too, and the process entry is marked detached; a lane whose thread
 *       still runs is left as it is, and the host recovers its current buffer's committed records. The shared lanes
 *       the hook closes stay locked: a virtual thread that writes after it counts the record in the header's
 *       {@code exitDropped}.</li>
 * </ul>
 * Thread-safe.
 */
final class Producer {
    /** The environment variable {@code dfx record} names the region file in. */
    static final String ENV = "DFX_REGION";
    /** The system property naming the region file when the variable is not set. */
    static final String PROPERTY = "dfx.region";
    private static final Object UNLANED = new Object();
    /** The thread name of a lane virtual threads share (15 bytes: a lane-table name's most). */
    static final String SHARED_LANE_NAME = "virtual threads";

    final Region r;
    private final int pid;
    private final int processSlot;
    private final List<Lane> platformLanes = new ArrayList<>(); // guarded by this
    private volatile Lane[] shared = new Lane[0];
    private int sharedCap; // guarded by this
    private final ThreadLocal<Object> lanes = new ThreadLocal<>();
    /** A name given to {@link Dfx#threadName} before the thread had a lane; applied when it claims one. */
    private final ThreadLocal<String> givenNames = new ThreadLocal<>();
    private final AtomicLong unlanedFlowIds = new AtomicLong();
    /** The exit hook has begun: the shared lanes it closes stay locked, so a write waiting for one gives up. */
    private volatile boolean exited;

    private Producer(Region r) {
        this.r = r;
        pid = (int) ProcessHandle.current().pid();
        processSlot = r.registerProcess(pid);
        sharedCap = Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Attaches to the region {@code DFX_REGION} names, once per JVM.
     *
     * @param path the variable's value (null or empty: not recording)
     * @param err  where the one line goes that says why a named region is not used
     * @return the producer, or null when nothing is recorded
     */
    static Producer attach(String path, PrintStream err) {
        if (path == null || path.isEmpty()) {
            return null;
        }
        Region r = Region.attach(Path.of(path), err);
        if (r == null) {
            return null;
        }
        Producer p = new Producer(r);
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(p::exit, "dfx-exit"));
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the host recovers what the lanes committed
        }
        return p;
    }

    /**
     * @return the calling platform thread's lane, claiming one at its first record; null when none is free, and then
     *     the caller counts the records it would have written with {@link #noLane} (only it knows how many)
     */
    Lane lane() {
        Object l = lanes.get();
        if (l instanceof Lane lane) {
            return lane;
        }
        if (l == UNLANED) {
            return null;
        }
        Lane claimed = claim(Thread.currentThread());
        lanes.set(claimed == null ? UNLANED : claimed);
        return claimed;
    }

    /**
     * Records that found no lane ({@link #lane()} or {@link #borrow()} gave null), counted in one atomic add, not
     * written: a virtual thread's after the exit hook began in the header's {@code exitDropped} (the lanes were
     * closed at exit: no lane count would have helped), any other in {@code unlanedDropped}.
     *
     * @param n       the records, 1 or 2 (one write)
     * @param virtual the writer is a virtual thread (it asked {@link #borrow()})
     */
    void noLane(int n, boolean virtual) {
        r.add64(virtual && exited ? Region.H_EXIT_DROPPED : Region.H_UNLANED_DROPPED, n);
    }

    private synchronized Lane claim(Thread t) {
        String given = givenNames.get();
        givenNames.remove();
        for (Lane l : platformLanes) {
            // a thread whose thread locals were erased (a common-pool worker after each top-level task) had one
            if (l.owner == t) {
                if (given != null) {
                    l.name(given, true);
                }
                return l;
            }
        }
        String name = given != null ? given : t.getName();
        Lane fresh = claimFresh(name, given != null);
        if (fresh != null) {
            fresh.owner = t;
            platformLanes.add(fresh);
            return fresh;
        }
        for (Lane l : platformLanes) {
            if (!l.owner.isAlive()) { // its writes happen-before this (JLS 17.4.4)
                l.owner = t;
                l.name(name, given != null); // the row shows the thread that writes it from now on
                return l;
            }
        }
        return null;
    }

    /**
     * Names the calling platform thread's lane (now, or when it claims one), instead of the thread's own name; the
     * thread's own name is not changed. Caller: a platform thread.
     */
    void threadName(String name) {
        if (lanes.get() instanceof Lane l) {
            l.name(name, true);
        } else if (lanes.get() == null) {
            givenNames.set(name);
        }
    }

    /** CAS of the first free kind-0 lane's owner word; the lane named and attached. Caller holds this. */
    private Lane claimFresh(String threadName, boolean given) {
        long owner = (long) pid << 32 | (tid() & 0xFFFFFFFFL);
        for (int i = 0; i < r.lanes; i++) {
            long t = r.laneEntry(i);
            if (r.get32(t + Region.T_KIND) != 0 || r.get64(t + Region.T_OWNER) != 0) {
                continue;
            }
            if (r.cas64(t + Region.T_OWNER, 0, owner)) {
                return new Lane(r, i, threadName, given);
            }
        }
        return null;
    }

    /** @return the calling OS thread's id, from the {@code /proc/thread-self -> PID/task/TID} link (Linux 3.17) */
    private static long tid() {
        try {
            Path p = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            return Long.parseLong(p.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return Thread.currentThread().threadId();
        }
    }

    /**
     * Takes a lane virtual threads share, for one write; give it back with {@link Lane#unlock()}.
     *
     * @return the lane, locked; null when the region has no lane left for virtual threads, or when every shared
     *     lane is closed by the exit hook (a virtual thread still writing at JVM exit: {@link #noLane} counts its
     *     records in {@code exitDropped}, not lost silently)
     */
    Lane borrow() {
        for (int round = 0;; round++) {
            Lane[] s = shared;
            for (Lane l : s) {
                if (l.tryLock()) {
                    return l;
                }
            }
            Lane added = addShared(s.length);
            if (added != null) {
                return added;
            }
            if (shared.length == 0 || exited) {
                return null;
            }
            // every shared lane is in a write: they are short (a gate wait at most), so wait for one
            if (round < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** Claims one more shared lane (locked) while there are fewer than {@code sharedCap}; null otherwise. */
    private synchronized Lane addShared(int seen) {
        Lane[] s = shared;
        if (s.length != seen || s.length >= sharedCap || exited) {
            return null;
        }
        Lane l = claimFresh(SHARED_LANE_NAME, true);
        if (l == null) {
            sharedCap = s.length;
            return null;
        }
        l.tryLock();
        Lane[] more = Arrays.copyOf(s, s.length + 1);
        more[s.length] = l;
        shared = more;
        return l;
    }

    /**
     * @param lane the lane the submitting thread writes, or null
     * @return a flow id unique in this run: the pid, the lane and the lane's own count (or a per-process count for
     *     threads without a lane)
     */
    long flowId(Lane lane) {
        long local = lane != null ? lane.nextFlow() : unlanedFlowIds.incrementAndGet() & ((1L << 30) - 1);
        long laneBits = lane != null ? lane.index + 1L : 0xFFFL;
        return (long) pid << 42 | laneBits << 30 | local;
    }

    /** @return a flow id for the task a virtual thread runs: the pid and the thread's id */
    long virtualFlowId(long threadId) {
        return (long) pid << 42 | (threadId & ((1L << 30) - 1));
    }

    /** Flushes the calling platform thread's lane. */
    void flush() {
        if (lanes.get() instanceof Lane l) {
            l.flush();
        }
    }

    private synchronized void exit() {
        exited = true;
        Thread me = Thread.currentThread();
        try {
            for (Lane l : platformLanes) {
                if (l.owner == me || !l.owner.isAlive()) {
                    l.close();
                }
            }
            for (Lane l : shared) {
                if (l.tryLock()) {
                    l.close(); // stays locked: nothing more is written to it
                }
            }
            r.detachProcess(processSlot);
        } catch (RuntimeException | InternalError e) { // InternalError: the region file cut short (SIGBUS)
            Dfx.failed(e);
        }
    }
}
