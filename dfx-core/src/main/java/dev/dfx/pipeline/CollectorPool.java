package dev.dfx.pipeline;

import java.util.Arrays;
import java.util.concurrent.ThreadFactory;

/**
 * The collector workers of a {@link HostGroup}: threads that serve every attached {@link CollectorShard}, of any
 * pipeline, in turn ({@value #BATCH} buffers per shard per turn). A collector is user code and may block (a slow disk,
 * a full pipe, a wedge), so the pool is elastic in one direction: when every worker has been inside one collector
 * call for longer than the wedge threshold while another shard has buffers waiting, {@link #checkWedged()} starts a
 * spare worker, so one wedged collector never stops the collectors of other shards or pipelines. A spare ends after
 * {@value #SPARE_IDLE_NS} ns without work. There are never more workers than shards, except the core workers.
 *
 * <p>Thread-safety: every method from any thread. The shard and worker lists are copy-on-write arrays (changed
 * under this object's lock, read without it, so a worker's turn allocates nothing). Workers park on their own
 * {@link HostIdle}; {@link #wake()} rings them all (there is one unless a collector is wedged).
 */
final class CollectorPool implements Doorbell {
    /** Buffers one worker delivers from one shard before it turns to the next. */
    static final int BATCH = 4;
    /** Idle time after which a spare worker ends, ns. */
    static final long SPARE_IDLE_NS = 200_000_000L;

    private final ThreadFactory factory;
    private final String threadName;
    private final long wedgeNs;
    private volatile CollectorShard[] shards = new CollectorShard[0];
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

    /** @param s a shard to serve from now on */
    synchronized void attach(CollectorShard s) {
        CollectorShard[] a = Arrays.copyOf(shards, shards.length + 1);
        a[a.length - 1] = s;
        shards = a;
        wake();
    }

    /** @param s a shard no worker may serve any more; call while holding its claim */
    synchronized void detach(CollectorShard s) {
        shards = Arrays.stream(shards).filter(x -> x != s).toArray(CollectorShard[]::new);
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
     * and some shard that no worker holds has buffers waiting. Cheap when any worker is free (a few volatile reads),
     * so host loops call it on every pass.
     */
    void checkWedged() {
        Worker[] ws = workers;
        long now = 0;
        for (Worker w : ws) {
            CollectorShard s = w.holding;
            long since = s == null ? 0 : s.inCallSinceNs();
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
        if (!running || workers.length >= shards.length) {
            return;
        }
        for (CollectorShard s : shards) {
            if (s.hasWork() && s.tryClaim()) {  // waiting, and no worker holds it
                s.release();
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

    /** Ends every worker after its current turn and waits for them. */
    void stop() {
        synchronized (this) {
            running = false;
        }
        boolean interrupted = false;
        for (Worker w : workers) {
            w.idle.wake();
            interrupted |= HostThreads.join(w.thread);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** One worker thread. */
    private final class Worker implements Runnable {
        final HostIdle idle = new HostIdle();
        final boolean spare;
        /** The shard whose claim this worker holds, or null. */
        volatile CollectorShard holding;
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

        /** Serves every shard once, starting one further each turn (so none is always last). */
        private int turn() {
            CollectorShard[] all = shards;
            int n = 0;
            for (int i = 0; i < all.length; i++) {
                CollectorShard s = all[(next + i) % all.length];
                if (s.hasWork() && s.tryClaim()) {
                    holding = s;
                    try {
                        n += s.drain(BATCH);
                    } finally {
                        holding = null;
                        s.release();
                    }
                }
            }
            next = all.length == 0 ? 0 : (next + 1) % all.length;
            return n;
        }
    }
}
