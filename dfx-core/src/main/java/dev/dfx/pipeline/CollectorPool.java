package dev.dfx.pipeline;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ThreadFactory;

/**
 * The collector workers of a {@link HostGroup}: threads that serve every attached {@link CollectorLane}, of any
 * pipeline, in turn ({@value #BATCH} buffers per lane per turn). A collector is user code and may block (a slow disk,
 * a full pipe, a wedge), so the pool is elastic in one direction: when every worker has been inside one collector
 * call for longer than the wedge threshold while a lane that no worker holds has buffers waiting, whichever drain
 * shard drained them, {@link #checkWedged()} starts a spare worker, so one slow or wedged collector call holds back
 * only its own lane, never another lane of its drain shard, its pipeline or another. A spare ends after
 * {@value #SPARE_IDLE_NS} ns without work. There are never more workers than collector lanes, except the core
 * workers.
 *
 * <p>Thread-safety: every method from any thread. The lane and worker lists are copy-on-write arrays (changed
 * under this object's lock, read without it, so a worker's turn allocates nothing). Workers park on their own
 * {@link HostIdle}; {@link #wake()} rings them all (there is one unless a collector is wedged).
 */
final class CollectorPool implements Doorbell {
    /** Buffers one worker delivers from one lane before it turns to the next. */
    static final int BATCH = 4;
    /** Idle time after which a spare worker ends, ns. */
    static final long SPARE_IDLE_NS = 200_000_000L;

    private final ThreadFactory factory;
    private final String threadName;
    private final long wedgeNs;
    private volatile CollectorLane[] lanes = new CollectorLane[0];
    private volatile Worker[] workers = new Worker[0];
    private int started;
    private volatile boolean running = true;

    /**
     * @param threadName prefix of worker thread names ({@code -N} is appended)
     * @param wedgeNs    a collector call longer than this counts as wedged, ns
     */
    CollectorPool(ThreadFactory factory, String threadName, long wedgeNs) {
        this.factory = factory;
        this.threadName = threadName;
        this.wedgeNs = wedgeNs;
    }

    /** Starts one core worker (it never retires). */
    synchronized void startWorker() {
        start(false);
    }

    /** @param added collector lanes to serve from now on (any thread) */
    synchronized void attach(CollectorLane[] added) {
        CollectorLane[] a = Arrays.copyOf(lanes, lanes.length + added.length);
        System.arraycopy(added, 0, a, lanes.length, added.length);
        lanes = a;
        wake();
    }

    /**
     * @param removed collector lanes no worker may start serving any more (each either claimed for good by the caller,
     *                or abandoned: a worker still inside its call delivers nothing more after it)
     */
    synchronized void detach(CollectorLane[] removed) {
        Set<CollectorLane> gone = Set.of(removed);
        lanes = Arrays.stream(lanes).filter(x -> !gone.contains(x)).toArray(CollectorLane[]::new);
    }

    /** @return live workers (core and spare) */
    int workers() {
        return workers.length;
    }

    @Override
    public void wake() {
        for (Worker w : workers) {
            w.idle.wake();
        }
    }

    /**
     * Starts a spare worker when every worker is stuck in one collector call for longer than the wedge threshold
     * and some lane that no worker holds has buffers waiting. Cheap when any worker is free (a few volatile reads),
     * so host loops call it on every pass.
     */
    void checkWedged() {
        Worker[] ws = workers;
        long now = 0;
        for (Worker w : ws) {
            CollectorLane c = w.holding;
            long since = c == null ? 0 : c.inCallSinceNs();
            if (since == 0) {
                return;
            }
            if (now == 0) {
                now = System.nanoTime();
            }
            if (now - since < wedgeNs) {
                return;
            }
        }
        if (ws.length > 0 && running) {
            startSpareIfNeeded();
        }
    }

    private synchronized void startSpareIfNeeded() {
        if (!running || workers.length >= lanes.length) {
            return;
        }
        for (CollectorLane c : lanes) {
            if (c.hasWork() && c.tryClaim()) {  // waiting, and no worker holds it
                c.release();
                start(true);
                return;
            }
        }
    }

    private void start(boolean spare) {
        Worker w = new Worker(spare);
        Thread t = factory.newThread(w);
        t.setName(threadName + "-" + started++);
        w.thread = t;
        Worker[] a = Arrays.copyOf(workers, workers.length + 1);
        a[a.length - 1] = w;
        workers = a;
        t.start();
    }

    private synchronized void remove(Worker w) {
        workers = Arrays.stream(workers).filter(x -> x != w).toArray(Worker[]::new);
    }

    /**
     * Ends every worker after its current turn and waits for them until {@code deadlineNs} (a worker inside a
     * collector call that outlives it is left to end on its own).
     *
     * @return whether the caller was interrupted meanwhile (re-assert it when done)
     */
    boolean stop(long deadlineNs) {
        synchronized (this) {
            running = false;
        }
        boolean interrupted = false;
        for (Worker w : workers) {
            w.idle.wake();
            interrupted |= HostThreads.join(w.thread, deadlineNs);
        }
        return interrupted;
    }

    /** One worker thread. */
    private final class Worker implements Runnable {
        final HostIdle idle = new HostIdle();
        final boolean spare;
        /** The lane whose claim this worker holds, or null. */
        volatile CollectorLane holding;
        volatile Thread thread;
        private int next;

        Worker(boolean spare) {
            this.spare = spare;
        }

        @Override
        public void run() {
            idle.bindToCurrentThread();
            long idleSince = 0;
            try {
                while (running) {
                    if (turn() > 0) {
                        idle.reset();
                        idleSince = 0;
                        continue;
                    }
                    if (spare) {
                        long now = System.nanoTime();
                        if (idleSince == 0) {
                            idleSince = now;
                        } else if (now - idleSince > SPARE_IDLE_NS) {
                            return;
                        }
                    }
                    idle.idle();
                }
            } finally {
                remove(this);
            }
        }

        /** Serves every lane once, starting one further each turn (so none is always last). */
        private int turn() {
            CollectorLane[] all = lanes;
            int n = 0;
            for (int i = 0; i < all.length; i++) {
                CollectorLane c = all[(next + i) % all.length];
                if (c.hasWork() && c.tryClaim()) {
                    holding = c;
                    try {
                        n += c.drain(BATCH);
                    } finally {
                        holding = null;
                        c.release();
                    }
                }
            }
            next = all.length == 0 ? 0 : (next + 1) % all.length;
            return n;
        }
    }
}
