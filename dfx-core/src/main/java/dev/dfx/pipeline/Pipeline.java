package dev.dfx.pipeline;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A lossless lane pipeline (DESIGN.md §5): producers write fixed-size records into lanes; full buffers travel
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
 *     w.flush();
 *     PipelineStats s = p.stop();            // after every producer flushed
 *     assert s.reconciled();
 * }
 * }</pre>
 *
 * <p>Threads: {@code drainShards} drain threads, as many collector threads, one replenisher, all from the
 * config's thread factory; they back off to short parks when idle. Thread-safety: {@link #writer},
 * {@link #payloadArena}, {@link #stats()} from any thread; {@link #stop()} and {@link #close()} from any
 * thread, once every producer has stopped writing (flushed, or ended) and that end happens-before the call
 * (e.g. {@code Thread.join}).
 */
public final class Pipeline implements AutoCloseable {
    private final PipelineParts parts;
    private final StatsReader statsReader;
    private final Instant started = Instant.now();
    private final List<Thread> drainThreads = new ArrayList<>();
    private final List<Thread> collectorThreads = new ArrayList<>();
    private Thread replenisherThread;
    private volatile PipelineStats finalStats;
    private boolean closed;

    Pipeline(PipelineConfig config, Collector collector) {
        if (config == null || collector == null) {
            throw new IllegalArgumentException("pipeline needs a config and a collector");
        }
        this.parts = new PipelineParts(config, collector);
        this.statsReader = new StatsReader(parts);
    }

    /**
     * Allocates the region, does the startup fill, and starts the drain shards, collectors and replenisher.
     *
     * @param config    the pipeline's configuration
     * @param collector receives every drained buffer (see {@link Collector} for its threading)
     * @return the running pipeline
     * @throws IllegalArgumentException when config or collector is null
     * @throws java.io.UncheckedIOException when the mapped file cannot be created
     */
    public static Pipeline start(PipelineConfig config, Collector collector) {
        Pipeline p = new Pipeline(config, collector);
        p.startThreads();
        return p;
    }

    void startThreads() {
        PipelineConfig c = parts.config;
        for (int s = 0; s < parts.shards.length; s++) {
            drainThreads.add(thread(parts.shards[s], c.name() + "-drain-" + s));
            collectorThreads.add(thread(parts.collectors[s], c.name() + "-collect-" + s));
        }
        replenisherThread = thread(parts.replenisher, c.name() + "-replenish");
    }

    private Thread thread(Runnable r, String name) {
        Thread t = parts.config.threadFactory().newThread(r);
        t.setName("dfx-" + name);
        t.start();
        return t;
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
        return f != null ? f : statsReader.snapshot(started, null);
    }

    /**
     * Stops the host side in the design's order and reconciles: drain shards do a final pass, then the
     * replenisher, then collectors drain what is left; a lane's un-flushed current buffer is recovered host-side
     * and delivered (counted collected). Idempotent: later calls return the same snapshot. Returns only after
     * every collector call has returned (a collector that never returns keeps it waiting).
     *
     * @return the final snapshot; {@link PipelineStats#reconciled()} tells whether any lane lost records silently
     */
    public synchronized PipelineStats stop() {
        if (finalStats != null) {
            return finalStats;
        }
        boolean interrupted = false;
        for (DrainShard s : parts.shards) {
            s.stop();
        }
        interrupted |= joinAll(drainThreads);
        if (drainThreads.isEmpty()) {
            for (DrainShard s : parts.shards) {
                while (s.sweep()) {
                    // no threads were started (tests): final pass here
                }
            }
        }
        parts.replenisher.stop();
        if (replenisherThread != null) {
            interrupted |= joinAll(List.of(replenisherThread));
        } else {
            parts.replenisher.tick();
        }
        for (CollectorShard c : parts.collectors) {
            c.replenisherStopped();
            c.stop();
        }
        interrupted |= joinAll(collectorThreads);
        if (collectorThreads.isEmpty()) {
            for (CollectorShard c : parts.collectors) {
                while (c.pollOnce()) {
                    // no threads were started (tests): drain here
                }
            }
        }
        new UnflushedRecovery(parts).recoverAll();
        finalStats = statsReader.snapshot(started, Instant.now());
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return finalStats;
    }

    private static boolean joinAll(List<Thread> threads) {
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        return interrupted;
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
