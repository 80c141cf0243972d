package dev.dfx.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;

/**
 * The host threads that several pipelines share (one recording's five subsystems, say), instead of three or more
 * threads per pipeline: {@code hostThreads} {@link HostLoop}s that each run, in turn, the drain shards and
 * replenishers placed on them, and a collector pool of {@code collectorThreads} workers that serve every pipeline's
 * collector lanes. On a machine with fewer CPUs than runtime threads, fewer host threads means fewer context
 * switches taken from the producers.
 *
 * <pre>{@code
 * try (HostGroup host = HostGroup.builder("record").build()) {      // 1 host loop + 1 collector worker
 *     Pipeline a = Pipeline.start(configA, collectorA, host);
 *     Pipeline b = Pipeline.start(configB, collectorB, host);
 *     ... producers write, flush, end ...
 *     a.stop(); b.stop();                                          // each in the design's stop order
 * }                                                                // ends the threads
 * }</pre>
 *
 * <p>Every contract of docs/pipeline.md holds per pipeline: a drain shard stays on one loop for its whole life, so that
 * loop's thread is the only run-time writer of the shard's free queues; recycled lanes stay SPSC (replenisher loop
 * to drain-shard loop); {@link Pipeline#stop()} still runs the drain shards' final passes, then the replenisher's,
 * then the collectors', then reconciles. Confinement: no host loop ever waits on a collector (a drain shard hands each
 * buffer to its lane's collector ring and goes on), and when every collector worker is stuck in one collector call
 * for longer than the wedge threshold while another lane has buffers waiting, the pool starts a spare worker; so a
 * slow or wedged collector call holds back only its own lane, whichever shard or pipeline the others are on.
 *
 * <p>Thread-safety: all methods from any thread. {@link #close()} stops every pipeline still attached, then ends
 * the threads (waiting at most {@link #THREAD_END_GRACE} for a thread stuck in user code, which is left behind);
 * afterwards no pipeline may start on the group.
 */
public final class HostGroup implements AutoCloseable {
    /** Default wedge threshold: a collector call longer than this lets the pool start a spare worker. */
    public static final Duration DEFAULT_WEDGE_THRESHOLD = Duration.ofMillis(50);
    /**
     * How long {@link #close()} waits for its threads to end. Only a thread inside user code (an arena-ack hook or a
     * collector call that a stop already gave up on) takes longer; it is left to end on its own.
     */
    public static final Duration THREAD_END_GRACE = Duration.ofSeconds(5);

    private final HostLoop[] loops;
    private final List<Thread> loopThreads = new ArrayList<>();
    private final CollectorPool pool;
    private final Set<Pipeline> attached = new LinkedHashSet<>();
    private int placed;
    private boolean closed;

    private HostGroup(Builder b) {
        ThreadFactory factory = b.threadFactory != null ? b.threadFactory : HostThreads.daemonFactory(b.name);
        this.pool = new CollectorPool(factory, "dfx-" + b.name + "-collect", b.wedgeThreshold.toNanos());
        this.loops = new HostLoop[b.hostThreads];
        for (int i = 0; i < loops.length; i++) {
            String name = "dfx-" + b.name + "-host-" + i;
            loops[i] = new HostLoop(name, pool);
            Thread t = factory.newThread(loops[i]);
            t.setName(name);
            loopThreads.add(t);
        }
        loopThreads.forEach(Thread::start);
        for (int i = 0; i < b.collectorThreads; i++) {
            pool.startWorker();
        }
    }

    /**
     * @param name used in thread names ({@code dfx-NAME-host-N}, {@code dfx-NAME-collect-N}); not blank
     * @return a builder with 1 host thread, 1 collector thread and the default wedge threshold
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return host loop threads */
    public int hostThreads() {
        return loops.length;
    }

    /** @return collector workers alive now (the core ones, plus spares while a collector is wedged) */
    public int collectorWorkers() {
        return pool.workers();
    }

    /** @return pipelines running on the group now */
    public synchronized int pipelines() {
        return attached.size();
    }

    /**
     * Chooses the loops of a new pipeline's parts: its drain shards on consecutive loops starting after the last
     * pipeline's, its replenisher on the first of them.
     */
    synchronized HostPlacement place(int drainShards) {
        if (closed) {
            throw new IllegalStateException("host group is closed");
        }
        int base = placed++;
        HostLoop[] forShards = new HostLoop[drainShards];
        for (int s = 0; s < drainShards; s++) {
            forShards[s] = loops[(base + s) % loops.length];
        }
        return HostPlacement.on(forShards, forShards[0], pool);
    }

    /** Puts a pipeline's parts on their loops and its collector lanes in the pool; returns once they run. */
    void attach(Pipeline p) {
        PipelineParts parts = p.parts();
        HostPlacement at = parts.placement;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("host group is closed");
            }
            attached.add(p);
        }
        List<CompletableFuture<Void>> adopted = new ArrayList<>();
        for (int s = 0; s < parts.shards.length; s++) {
            adopted.add(at.shardLoop(s).adopt(parts.shards[s]));
        }
        adopted.add(at.replenisherLoop().adopt(parts.replenisher));
        adopted.forEach(CompletableFuture::join);
        pool.attach(parts.collectorLanes);
    }

    /**
     * Takes a pipeline off the group in the stop order of docs/pipeline.md, after its lanes were closed or revoked
     * ({@link StopProtocol#closeLanes()}): every drain shard's final pass on its loop (up to the ready-queue tails its
     * loop reads then), the replenisher's final tick, the collector workers deliver every published buffer, then the
     * recovery of un-flushed buffers, which the collector workers deliver too. Each step waits at most until the
     * stop's host bound; a part that outlives it is abandoned and named in the stop ({@link StopProtocol#stuck()}). On return no group thread starts work for the pipeline again: each
     * collector lane is claimed for good by the caller, or abandoned (a call still running finishes and delivers
     * nothing more).
     */
    void detach(Pipeline p, StopProtocol stop) {
        PipelineParts parts = p.parts();
        HostPlacement at = parts.placement;
        List<CompletableFuture<Void>> drained = new ArrayList<>();
        for (int s = 0; s < parts.shards.length; s++) {
            drained.add(at.shardLoop(s).finish(parts.shards[s]));
        }
        for (int s = 0; s < parts.shards.length; s++) {
            if (!stop.await(drained.get(s))) {
                parts.shards[s].abandon();
                stop.shardStuck(parts.shards[s], at.shardLoop(s));
            }
        }
        if (!stop.await(at.replenisherLoop().finishReplenisher(parts.replenisher))) {
            parts.replenisher.abandon();
            stop.replenisherStuck(at.replenisherLoop());
        }
        for (CollectorLane c : parts.collectorLanes) {
            c.replenisherStopped();
        }
        // The collectors deliver every published buffer first: recovery of a producer in another process counts what
        // its lane received, so that count must be final. Then the recovered buffers, under the claim for good.
        awaitCollectors(parts, stop, false);
        new UnflushedRecovery(parts, stop).recoverAll();
        awaitCollectors(parts, stop, true);
        pool.detach(parts.collectorLanes);
        synchronized (this) {
            attached.remove(p);
        }
    }

    /**
     * Waits, up to the stop's host bound, until every collector lane of the pipeline delivered its backlog and runs no
     * call; a lane that outlives the bound is abandoned and named in the stop. With {@code claim}, each lane is then
     * claimed for good by the caller, so no worker starts work on it again.
     */
    private void awaitCollectors(PipelineParts parts, StopProtocol stop, boolean claim) {
        pool.wake();
        for (CollectorLane c : parts.collectorLanes) {
            for (int poll = 0; !c.abandoned() && !(c.idle() && (!claim || c.tryClaim())); poll++) {
                if (stop.hostNsLeft() <= 0) {
                    stop.collectorStuck(c, c.abandon());
                    break;
                }
                StopProtocol.pause(poll, stop.hostDeadlineNs());
            }
        }
    }

    /** Stops every pipeline still attached (as {@link Pipeline#stop()}), then ends the threads. Idempotent. */
    @Override
    public void close() {
        List<Pipeline> left;
        synchronized (this) {
            if (closed) {
                return;
            }
            left = new ArrayList<>(attached);
        }
        left.forEach(Pipeline::stop);
        endThreads(THREAD_END_GRACE.toNanos());
    }

    /**
     * Ends the loops and collector workers, waiting at most {@code graceNs} in all for them (a thread stuck in user
     * code is left behind). Call after every pipeline left the group.
     */
    void endThreads(long graceNs) {
        synchronized (this) {
            closed = true;
        }
        for (HostLoop l : loops) {
            l.stop();
        }
        long deadline = System.nanoTime() + graceNs;
        boolean interrupted = false;
        for (Thread t : loopThreads) {
            interrupted |= HostThreads.join(t, deadline);
        }
        interrupted |= pool.stop(deadline);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Settings of a host group. */
    public static final class Builder {
        private final String name;
        private int hostThreads = 1;
        private int collectorThreads = 1;
        private Duration wedgeThreshold = DEFAULT_WEDGE_THRESHOLD;
        private ThreadFactory threadFactory;

        private Builder(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("host group name must not be blank");
            }
            this.name = name;
        }

        /**
         * @param n host loops, {@code >= 1}: a pipeline's drain shards go on consecutive loops
         * @throws IllegalArgumentException when {@code n < 1}
         */
        public Builder hostThreads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("hostThreads must be >= 1, got " + n);
            }
            this.hostThreads = n;
            return this;
        }

        /**
         * @param n collector workers that never retire, {@code >= 1}
         * @throws IllegalArgumentException when {@code n < 1}
         */
        public Builder collectorThreads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("collectorThreads must be >= 1, got " + n);
            }
            this.collectorThreads = n;
            return this;
        }

        /**
         * @param d how long one collector call may run before the pool treats its worker as wedged and, if another
         *          shard waits, starts a spare; positive
         * @throws IllegalArgumentException when {@code d} is not positive
         */
        public Builder wedgeThreshold(Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("wedgeThreshold must be positive, got " + d);
            }
            this.wedgeThreshold = d;
            return this;
        }

        /** @param f creates the group's threads (default: daemon platform threads) */
        public Builder threadFactory(ThreadFactory f) {
            this.threadFactory = f;
            return this;
        }

        /** @return a started group */
        public HostGroup build() {
            return new HostGroup(this);
        }
    }
}
