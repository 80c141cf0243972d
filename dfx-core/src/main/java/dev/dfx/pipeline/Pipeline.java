package dev.dfx.pipeline;

import java.time.Instant;

/**
 * A lossless lane pipeline (docs/pipeline.md): producers write fixed-size records into lanes; full buffers travel
 * through per-producer ready queues to drain shards, then to collector threads, and come back through done
 * queues, the replenisher and recycled lanes into the lanes' free queues.
 *
 * <pre>{@code
 * PipelineConfig.Builder b = PipelineConfig.builder("swimlane");
 * int task = b.pool(new PoolSpec("core-task", 32, 1000, 8));
 * int lane = b.lane(task, 0);
 * try (Pipeline p = Pipeline.start(b.build(), buf -> store(buf.records()))) {
 *     LaneWriter w = p.writer(lane);          // on the producer's thread
 *     long off = w.claim();
 *     if (off >= 0) w.segment().set(LE_LONG, off, now);
 *     w.flush();                              // detaches the lane: stop need not wait for it
 *     PipelineStats s = p.stop();
 *     assert s.reconciled();
 * }
 * }</pre>
 *
 * <p>Threads: the pipeline's host parts (drain shards, replenisher, collector lanes) run on a {@link HostGroup}:
 * one of its own ({@link #start(PipelineConfig, Collector)}: {@code drainShards} host loops and as many collector
 * workers, named after the pipeline) or one shared with other pipelines
 * ({@link #start(PipelineConfig, Collector, HostGroup)}). Idle host threads park until a hand-off wakes them.
 * Thread-safety: {@link #writer}, {@link #payloadArena}, {@link #stats()}, {@link #stop()} and {@link #close()}
 * from any thread. Producers may still be writing when {@link #stop()} begins: it is a protocol with them
 * ({@link StopProtocol}), not a race. Writers must not be used after {@link #close()} (their memory is freed).
 */
public final class Pipeline implements AutoCloseable {
    private final PipelineParts parts;
    private final StatsReader statsReader;
    private final Instant started = Instant.now();
    private final long startedNs = System.nanoTime();
    private final HostGroup group;
    private final boolean ownGroup;
    private volatile PipelineStats finalStats;
    private boolean closed;

    /** A pipeline whose host a test plays step by step (no threads). */
    Pipeline(PipelineConfig config, Collector collector) {
        this(config, collector, null, false);
    }

    private Pipeline(PipelineConfig config, Collector collector, HostGroup group, boolean ownGroup) {
        if (config == null || collector == null) {
            throw new IllegalArgumentException("pipeline needs a config and a collector");
        }
        this.group = group;
        this.ownGroup = ownGroup;
        HostPlacement at = group == null ? HostPlacement.unattended(config.drainShards())
                : group.place(config.drainShards());
        this.parts = new PipelineParts(config, collector, at);
        this.statsReader = new StatsReader(parts);
    }

    /**
     * Allocates the region, does the startup fill, and starts the pipeline on a host group of its own:
     * {@code drainShards} host loops ({@code dfx-NAME-host-N}) and as many collector workers
     * ({@code dfx-NAME-collect-N}), from the config's thread factory. {@link #stop()} ends them.
     *
     * @param config    the pipeline's configuration
     * @param collector receives every drained buffer (see {@link Collector} for its threading)
     * @return the running pipeline
     * @throws IllegalArgumentException when config or collector is null
     * @throws java.io.UncheckedIOException when the mapped file cannot be created
     */
    public static Pipeline start(PipelineConfig config, Collector collector) {
        if (config == null) {
            throw new IllegalArgumentException("pipeline needs a config and a collector");
        }
        HostGroup own = HostGroup.builder(config.name()).hostThreads(config.drainShards())
                .collectorThreads(config.drainShards()).threadFactory(config.threadFactory()).build();
        try {
            return start(config, collector, own, true);
        } catch (RuntimeException | Error e) {
            own.close();
            throw e;
        }
    }

    /**
     * Allocates the region, does the startup fill, and starts the pipeline on a host group shared with other
     * pipelines (the config's thread factory is not used). {@link #stop()} takes it off the group; the group's
     * threads go on serving the others.
     *
     * @param config    the pipeline's configuration
     * @param collector receives every drained buffer (see {@link Collector} for its threading)
     * @param group     the host threads to run on
     * @return the running pipeline
     * @throws IllegalArgumentException when an argument is null
     * @throws IllegalStateException    when the group is closed
     * @throws java.io.UncheckedIOException when the mapped file cannot be created
     */
    public static Pipeline start(PipelineConfig config, Collector collector, HostGroup group) {
        if (group == null) {
            throw new IllegalArgumentException("pipeline needs a host group");
        }
        return start(config, collector, group, false);
    }

    private static Pipeline start(PipelineConfig config, Collector collector, HostGroup group, boolean own) {
        Pipeline p = new Pipeline(config, collector, group, own);
        try {
            group.attach(p);
        } catch (RuntimeException | Error e) {
            p.parts.region.close();
            throw e;
        }
        return p;
    }

    /**
     * @param lane a lane index from {@link PipelineConfig.Builder#lane}
     * @return the lane's writer (the same object on every call); use it from the lane's producer thread only
     * @throws IllegalArgumentException when there is no such lane
     */
    public LaneWriter writer(int lane) {
        if (lane < 0 || lane >= parts.writers.length) {
            throw new IllegalArgumentException("pipeline " + parts.config.name() + ": no lane " + lane
                    + " (lanes 0.." + (parts.writers.length - 1) + ")");
        }
        return parts.writers[lane];
    }

    /**
     * @param lane a lane configured with {@link PipelineConfig.Builder#payloadArena}
     * @return its payload arena
     * @throws IllegalArgumentException when the lane has none
     */
    public PayloadArena payloadArena(int lane) {
        writer(lane);
        PayloadArena a = parts.arenas[lane];
        if (a == null) {
            throw new IllegalArgumentException("pipeline " + parts.config.name() + ": lane " + lane
                    + " has no payload arena");
        }
        return a;
    }

    /** @return the configuration */
    public PipelineConfig config() {
        return parts.config;
    }

    /**
     * @return a live snapshot (records in flight are not yet collected), or the final one after {@link #stop()};
     *         safe from any thread
     */
    public PipelineStats stats() {
        PipelineStats f = finalStats;
        return f != null ? f : statsReader.snapshot(started, null, System.nanoTime() - startedNs, null);
    }

    /**
     * Stops the pipeline by the stop protocol ({@link StopProtocol}) and reconciles: waits up to one backstop for
     * lanes still attached (the host keeps running meanwhile), revokes those still writing then, lets the drain
     * shards do a final pass, lets the replenisher and the collectors finish, then recovers the un-flushed current
     * buffer of each lane whose writer ended without a flush or whose producer process died (counted collected) and
     * delivers it. Records that a lane still writing had not
     * published, or that a stuck part held, are counted dropped with cause {@link DropCause#STOPPED}, so
     * {@link PipelineStats#reconciled()} holds unless records were lost silently.
     *
     * <p>Bound: returns within two backstops (one for the lanes, one for the host's final passes and collectors),
     * whatever an arena-ack hook or collector call does; a part that outlived its bound is named in
     * {@link PipelineStats#stuck()} and left to end on its own (it no longer touches the pipeline's counts).
     * Idempotent: later calls return the same snapshot.
     *
     * @return the final snapshot
     */
    public synchronized PipelineStats stop() {
        if (finalStats != null) {
            return finalStats;
        }
        StopProtocol stop = new StopProtocol(parts);
        stop.closeLanes();
        if (group != null) {
            group.detach(this, stop);
        } else {
            stopUnattended(stop);
        }
        stop.checkResidualLanes();
        finalStats = statsReader.snapshot(started, Instant.now(), System.nanoTime() - startedNs, stop);
        if (ownGroup) {
            group.endThreads(finalStats.stuck().isEmpty() ? HostGroup.THREAD_END_GRACE.toNanos() : 0);
        }
        return finalStats;
    }

    /** The stop order played on the calling thread, for a pipeline without host threads (tests). */
    private void stopUnattended(StopProtocol stop) {
        for (DrainShard s : parts.shards) {
            s.startFinalPass();
            s.sweep();
        }
        parts.replenisher.tick();
        for (CollectorLane c : parts.collectorLanes) {
            c.replenisherStopped();
        }
        deliverAll();
        // after every published buffer, so recovery of a producer in another process sees its lane's final received
        new UnflushedRecovery(parts, stop).recoverAll();
        deliverAll();
    }

    private void deliverAll() {
        for (CollectorLane c : parts.collectorLanes) {
            while (c.pollOnce()) {
                // collectors deliver what is left
            }
        }
    }

    /** {@link #stop()}, then frees the region and every buffer; writers must not be used afterwards. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stop();
        closed = true;
        parts.region.close();
    }

    /** Wiring, for tests in this package. */
    PipelineParts parts() {
        return parts;
    }
}
