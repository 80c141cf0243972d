package dev.dfx.pipeline;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.function.LongPredicate;

/**
 * Everything {@link Pipeline#start} needs: buffer kinds, lanes, policy and the knobs of docs/pipeline.md.
 * Built with {@link #builder(String)}; immutable once built and safe to share.
 *
 * <p>Terms: a <em>producer</em> is one writer thread and owns one ready queue; a <em>lane</em> is one stream of
 * one buffer kind written by one producer (a producer may own several lanes). Drain shard {@code i} of
 * {@code n} serves the ready queues of producers {@code i, i+n, ...}.
 */
public final class PipelineConfig {
    /** Default backstop of one gate wait: 30 s (the reference's {@code PLATFORM_DFX_BACKPRESSURE_TIMEOUT}). */
    public static final Duration DEFAULT_BACKSTOP = Duration.ofSeconds(30);
    /** Default stall threshold: a gate wait longer than 100 µs is a stall. */
    public static final Duration DEFAULT_STALL_THRESHOLD = Duration.ofNanos(100_000);
    /** Default free-queue slots per lane ({@code SLOT_COUNT}), as in the reference. */
    public static final int DEFAULT_FREE_QUEUE_SLOTS = 4;
    /** Default cap of stall windows kept per lane (counts stay exact beyond it). */
    public static final int DEFAULT_MAX_STALL_WINDOWS = 1 << 16;
    /** Default cap of drop windows kept per lane (later runs of drops join the newest; counts stay exact). */
    public static final int DEFAULT_MAX_DROP_WINDOWS = 1 << 16;
    /**
     * Default most depth intervals kept per lane's free queue ({@link LaneStats#freeDepthSamples()}) and per ready
     * queue ({@link QueueStats#readyDepthSamples()}).
     */
    public static final int DEFAULT_MAX_DEPTH_SAMPLES = 1 << 12;
    /** Shortest interval of a queue-depth series (free or ready) before a change starts a new one: 100 µs, in ns. */
    public static final long DEPTH_SAMPLE_INTERVAL_NS = 100_000;
    /** Most drain shards chosen by default. */
    public static final int DEFAULT_MAX_DRAIN_SHARDS = 4;

    /**
     * One lane.
     *
     * @param lane     lane index, {@code 0..}
     * @param kind     buffer kind (pool index)
     * @param producer producer (writer thread) index
     */
    public record LaneSpec(int lane, int kind, int producer) {
    }

    private final String name;
    private final List<PoolSpec> pools;
    private final List<LaneSpec> lanes;
    private final int producers;
    private final BackpressurePolicy policy;
    /** Per kind, a policy of its own; kinds not listed follow {@link #policy}. */
    private final Map<Integer, BackpressurePolicy> poolPolicies;
    private final Duration backstop;
    private final Duration stallThreshold;
    private final MemoryMode memoryMode;
    private final int drainShards;
    private final int readyQueueSize;
    private final int freeQueueSlots;
    private final Path mappedFile;
    private final ArenaAckHook arenaAckHook;
    private final int[] recycledWatermark;
    private final Map<Integer, Long> payloadArenas;
    private final int maxStallWindows;
    private final int maxDropWindows;
    private final int maxDepthSamples;
    private final ThreadFactory threadFactory;
    private final boolean externalProducers;
    private final int stringTableBytes;
    private final int processSlots;
    private final LongPredicate producerAlive;

    private PipelineConfig(Builder b) {
        this.name = b.name;
        this.pools = List.copyOf(b.pools);
        this.lanes = List.copyOf(b.lanes);
        this.producers = b.lanes.stream().mapToInt(LaneSpec::producer).max().orElse(-1) + 1;
        this.policy = b.policy;
        this.poolPolicies = Map.copyOf(b.poolPolicies);
        this.backstop = b.backstop;
        this.stallThreshold = b.stallThreshold;
        this.memoryMode = b.memoryMode;
        this.drainShards = b.drainShards > 0 ? b.drainShards : Math.min(producers, DEFAULT_MAX_DRAIN_SHARDS);
        this.readyQueueSize = b.readyQueueSize > 0 ? b.readyQueueSize : defaultReadyQueueSize();
        this.freeQueueSlots = b.freeQueueSlots;
        this.mappedFile = b.mappedFile;
        this.arenaAckHook = b.arenaAckHook;
        this.recycledWatermark = new int[pools.size()];
        for (int k = 0; k < pools.size(); k++) {
            recycledWatermark[k] = b.recycledWatermark.getOrDefault(k, -1);
        }
        this.payloadArenas = Collections.unmodifiableMap(new HashMap<>(b.payloadArenas));
        this.maxStallWindows = b.maxStallWindows;
        this.maxDropWindows = b.maxDropWindows;
        this.maxDepthSamples = b.maxDepthSamples;
        this.threadFactory = b.threadFactory;
        this.externalProducers = b.externalProducers;
        this.stringTableBytes = b.stringTableBytes;
        this.processSlots = b.processSlots;
        this.producerAlive = b.producerAlive;
    }

    /**
     * Enough entries for every buffer of the busiest producer's lanes plus the sacrificed slot, so a lane
     * that keeps within its buffers can never find its ready queue full.
     */
    private int defaultReadyQueueSize() {
        long[] perProducer = new long[producers];
        for (LaneSpec l : lanes) {
            perProducer[l.producer()] += pools.get(l.kind()).buffersPerLane();
        }
        long max = 0;
        for (long v : perProducer) {
            max = Math.max(max, v);
        }
        return (int) Math.min(Integer.MAX_VALUE / 64, max + 1);
    }

    /**
     * @param name the subsystem this pipeline carries, e.g. {@code "swimlane"}; used in thread names and
     *             messages
     * @return a new builder with the defaults (BLOCK, 30 s backstop, 100 µs stall threshold, SHARED, 4 slots)
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the pipeline (subsystem) name */
    public String name() {
        return name;
    }

    /** @return buffer kinds, by kind index */
    public List<PoolSpec> pools() {
        return pools;
    }

    /** @return lanes, by lane index */
    public List<LaneSpec> lanes() {
        return lanes;
    }

    /** @return number of producers: the highest producer index of any lane, plus one */
    public int producers() {
        return producers;
    }

    /** @return the backpressure policy of every kind that has none of its own */
    public BackpressurePolicy policy() {
        return policy;
    }

    /**
     * @param kind a kind index
     * @return the kind's backpressure policy: its own ({@link Builder#pool(PoolSpec, BackpressurePolicy)}), else
     *         {@link #policy()}
     */
    public BackpressurePolicy policy(int kind) {
        return poolPolicies.getOrDefault(kind, policy);
    }

    /**
     * @return the budget of one gate wait, taken once before the wait's loop; also how long {@link Pipeline#stop()}
     *         waits for lanes still attached, and then for the host to finish
     */
    public Duration backstop() {
        return backstop;
    }

    /** @return a wait longer than this is recorded as a stall */
    public Duration stallThreshold() {
        return stallThreshold;
    }

    /** @return how the host sees the region */
    public MemoryMode memoryMode() {
        return memoryMode;
    }

    /** @return number of drain shards (and of collector threads) */
    public int drainShards() {
        return drainShards;
    }

    /** @return entries per producer's ready queue (one is sacrificed) */
    public int readyQueueSize() {
        return readyQueueSize;
    }

    /** @return free-queue slots per lane ({@code SLOT_COUNT}) */
    public int freeQueueSlots() {
        return freeQueueSlots;
    }

    /** @return the file backing the region and buffers, if any */
    public Optional<Path> mappedFile() {
        return Optional.ofNullable(mappedFile);
    }

    /** @return the hook run once per replenisher tick, if any */
    public Optional<ArenaAckHook> arenaAckHook() {
        return Optional.ofNullable(arenaAckHook);
    }

    /**
     * @param kind kind index
     * @return the recycled-lane watermark per drain shard set for the kind, or -1 for the default (half the
     *         shard's surplus, rounded up; see {@link Builder#recycledWatermark})
     */
    public int recycledWatermark(int kind) {
        return recycledWatermark[kind];
    }

    /** @return payload arena size in bytes by lane, for lanes that have one */
    public Map<Integer, Long> payloadArenas() {
        return payloadArenas;
    }

    /** @return most stall windows kept per lane */
    public int maxStallWindows() {
        return maxStallWindows;
    }

    /** @return most drop windows kept per lane ({@link LaneStats#dropWindows()}) */
    public int maxDropWindows() {
        return maxDropWindows;
    }

    /**
     * @return most depth intervals kept per lane's free queue ({@link LaneStats#freeDepthSamples()}) and per ready
     *         queue ({@link QueueStats#readyDepthSamples()})
     */
    public int maxDepthSamples() {
        return maxDepthSamples;
    }

    /** @return the factory of the host threads (drain shards, collectors, replenisher) */
    public ThreadFactory threadFactory() {
        return threadFactory;
    }

    /**
     * @return true when the lanes are written by producers in other processes (the region ABI's producers): the
     *         host then recovers a lane's current buffer from its released {@code committed} count, and counts
     *         records a producer counted but never committed as lost with {@link DropCause#PRODUCER_EXITED}
     */
    public boolean externalProducers() {
        return externalProducers;
    }

    /** @return bytes of each lane's string table in the region (0 unless {@link #externalProducers()}) */
    public int stringTableBytes() {
        return stringTableBytes;
    }

    /** @return entries of the region's process table (0 unless {@link #externalProducers()}) */
    public int processSlots() {
        return processSlots;
    }

    /**
     * @return whether the producer process with a given pid is alive, for lanes written by producers in other
     *         processes, or empty: stop then knows only that an in-process writer stopped (its thread ended). See
     *         {@link Builder#producerLiveness(LongPredicate)}.
     */
    public Optional<LongPredicate> producerLiveness() {
        return Optional.ofNullable(producerAlive);
    }

    /** Builds a {@link PipelineConfig}; not thread-safe. Every setter checks its value at once. */
    public static final class Builder {
        private final String name;
        private final List<PoolSpec> pools = new ArrayList<>();
        private final List<LaneSpec> lanes = new ArrayList<>();
        private BackpressurePolicy policy = BackpressurePolicy.BLOCK;
        private final Map<Integer, BackpressurePolicy> poolPolicies = new HashMap<>();
        private Duration backstop = DEFAULT_BACKSTOP;
        private Duration stallThreshold = DEFAULT_STALL_THRESHOLD;
        private MemoryMode memoryMode = MemoryMode.SHARED;
        private int drainShards;
        private int readyQueueSize;
        private int freeQueueSlots = DEFAULT_FREE_QUEUE_SLOTS;
        private Path mappedFile;
        private ArenaAckHook arenaAckHook;
        private final Map<Integer, Integer> recycledWatermark = new HashMap<>();
        private final Map<Integer, Long> payloadArenas = new HashMap<>();
        private int maxStallWindows = DEFAULT_MAX_STALL_WINDOWS;
        private int maxDropWindows = DEFAULT_MAX_DROP_WINDOWS;
        private int maxDepthSamples = DEFAULT_MAX_DEPTH_SAMPLES;
        private ThreadFactory threadFactory;
        private boolean externalProducers;
        private int stringTableBytes;
        private int processSlots;
        private LongPredicate producerAlive;

        private Builder(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("pipeline name must not be blank");
            }
            this.name = name;
        }

        private IllegalArgumentException bad(String option, String what) {
            return new IllegalArgumentException("pipeline " + name + ": " + option + " " + what);
        }

        /**
         * Adds a buffer kind.
         *
         * @return its kind index, 0 for the first pool
         */
        public int pool(PoolSpec spec) {
            if (spec == null) {
                throw bad("pool", "must not be null");
            }
            pools.add(spec);
            return pools.size() - 1;
        }

        /**
         * Adds a buffer kind with a backpressure policy of its own (a subsystem that may drop beside ones that must
         * not, or the reverse).
         *
         * @return its kind index
         */
        public int pool(PoolSpec spec, BackpressurePolicy p) {
            if (p == null) {
                throw bad("pool policy", "must not be null");
            }
            int kind = pool(spec);
            poolPolicies.put(kind, p);
            return kind;
        }

        /**
         * Adds a lane of the given kind, written by the given producer.
         *
         * @param kind     a kind index returned by {@link #pool}
         * @param producer producer index {@code >= 0}; the lanes of one producer must all be written by one thread
         * @return its lane index, 0 for the first lane
         */
        public int lane(int kind, int producer) {
            if (kind < 0 || kind >= pools.size()) {
                throw bad("lane kind", "must be a pool index 0.." + (pools.size() - 1) + ", got " + kind);
            }
            if (producer < 0) {
                throw bad("lane producer", "must be >= 0, got " + producer);
            }
            lanes.add(new LaneSpec(lanes.size(), kind, producer));
            return lanes.size() - 1;
        }

        /** @param p BLOCK (default) or DROP */
        public Builder policy(BackpressurePolicy p) {
            if (p == null) {
                throw bad("policy", "must not be null");
            }
            this.policy = p;
            return this;
        }

        /**
         * @param d budget of one gate wait, {@code > 0} (default 30 s); stop waits at most one for attached lanes and
         *          one for the host
         */
        public Builder backstop(Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw bad("backstop", "must be > 0, got " + d);
            }
            this.backstop = d;
            return this;
        }

        /** @param d a wait longer than this is a stall, {@code >= 0} (default 100 µs) */
        public Builder stallThreshold(Duration d) {
            if (d == null || d.isNegative()) {
                throw bad("stallThreshold", "must be >= 0, got " + d);
            }
            this.stallThreshold = d;
            return this;
        }

        /** @param m SHARED (default) or COPY */
        public Builder memoryMode(MemoryMode m) {
            if (m == null) {
                throw bad("memoryMode", "must not be null");
            }
            this.memoryMode = m;
            return this;
        }

        /** @param n drain shards, {@code >= 1} and at most the number of producers (default min(producers, 4)) */
        public Builder drainShards(int n) {
            if (n < 1) {
                throw bad("drainShards", "must be >= 1, got " + n);
            }
            this.drainShards = n;
            return this;
        }

        /**
         * @param n entries per producer's ready queue, {@code >= 2} (one is sacrificed); default: the busiest
         *          producer's buffers plus one
         */
        public Builder readyQueueSize(int n) {
            if (n < 2) {
                throw bad("readyQueueSize", "must be >= 2 (one slot is sacrificed), got " + n);
            }
            this.readyQueueSize = n;
            return this;
        }

        /** @param n free-queue slots per lane ({@code SLOT_COUNT}), 1..4096 (default 4) */
        public Builder freeQueueSlots(int n) {
            if (n < 1 || n > 4096) {
                throw bad("freeQueueSlots", "must be 1..4096, got " + n);
            }
            this.freeQueueSlots = n;
            return this;
        }

        /**
         * @param file file to back the region and the buffers (created or truncated), so a producer in another
         *             process can map it; its layout is {@link RegionLayout}
         */
        public Builder mappedFile(Path file) {
            this.mappedFile = file;
            return this;
        }

        /**
         * Declares that the lanes are written by producers in other processes through the mapped file (the region
         * ABI, {@code docs/region-abi.md}), and sizes the tables they need.
         *
         * @param stringTableBytes bytes of each lane's string table, a multiple of 128 from 128 to 2^30
         * @param processSlots     entries of the process table, 1..65536
         */
        public Builder externalProducers(int stringTableBytes, int processSlots) {
            if (stringTableBytes < 128 || stringTableBytes > (1 << 30) || stringTableBytes % 128 != 0) {
                throw bad("string table", "must be a multiple of 128 bytes from 128 to 2^30, got " + stringTableBytes);
            }
            if (processSlots < 1 || processSlots > 65536) {
                throw bad("process slots", "must be 1..65536, got " + processSlots);
            }
            this.externalProducers = true;
            this.stringTableBytes = stringTableBytes;
            this.processSlots = processSlots;
            return this;
        }

        /**
         * Lets stop tell that a lane's producer process ended: at stop, an attached lane whose owner process (the pid
         * in the high 32 bits of its lane-table {@code owner} word, {@link RegionLayout#T_OWNER}) is not alive is
         * closed at once instead of being waited for up to the backstop, and its current buffer is recovered up to
         * its released {@code committed} count (the rest it counted drops with {@link DropCause#PRODUCER_EXITED}).
         * A lane without an owner is never judged by it. A pid reused by a new process reads as alive: stop then waits
         * for that lane as for any attached lane.
         *
         * @param alive called by the thread running {@link Pipeline#stop()} with a pid ({@code > 0}); must not block
         */
        public Builder producerLiveness(LongPredicate alive) {
            if (alive == null) {
                throw bad("producerLiveness", "must not be null");
            }
            this.producerAlive = alive;
            return this;
        }

        /** @param hook run once per replenisher tick (see {@link ArenaAckHook}) */
        public Builder arenaAckHook(ArenaAckHook hook) {
            this.arenaAckHook = hook;
            return this;
        }

        /**
         * Sets how many spare buffers of a kind the replenisher keeps in each drain shard's recycled lane,
         * allocating when a lane falls below it. Default: half of the shard's startup surplus (buffers beyond
         * the free-queue slots), rounded up; 0 when there is no surplus, so the pool never grows.
         *
         * @param kind    kind index
         * @param buffers watermark per shard, {@code >= 0}
         */
        public Builder recycledWatermark(int kind, int buffers) {
            if (kind < 0 || kind >= pools.size()) {
                throw bad("recycledWatermark kind", "must be a pool index 0.." + (pools.size() - 1) + ", got " + kind);
            }
            if (buffers < 0) {
                throw bad("recycledWatermark", "must be >= 0, got " + buffers);
            }
            recycledWatermark.put(kind, buffers);
            return this;
        }

        /**
         * Gives a lane a {@link PayloadArena} (used by {@code args}).
         *
         * @param lane  lane index
         * @param bytes arena size, {@code >= 64}, a multiple of 8
         */
        public Builder payloadArena(int lane, long bytes) {
            if (lane < 0 || lane >= lanes.size()) {
                throw bad("payloadArena lane", "must be a lane index 0.." + (lanes.size() - 1) + ", got " + lane);
            }
            if (bytes < 64 || bytes % 8 != 0) {
                throw bad("payloadArena", "size must be >= 64 and a multiple of 8 bytes, got " + bytes);
            }
            payloadArenas.put(lane, bytes);
            return this;
        }

        /** @param n most stall windows kept per lane, {@code >= 0} (default 65536; counts stay exact) */
        public Builder maxStallWindows(int n) {
            if (n < 0) {
                throw bad("maxStallWindows", "must be >= 0, got " + n);
            }
            this.maxStallWindows = n;
            return this;
        }

        /**
         * @param n most drop windows kept per lane, {@code >= 1} (default 65536): once reached, every later run of
         *          drops joins the newest window, so the windows' counts still add up to the lane's drops
         */
        public Builder maxDropWindows(int n) {
            if (n < 1) {
                throw bad("maxDropWindows", "must be >= 1, got " + n);
            }
            this.maxDropWindows = n;
            return this;
        }

        /**
         * @param n most depth intervals kept per lane's free queue and per ready queue, {@code >= 1} (default 4096):
         *          once reached, every later change folds into the newest interval (its extremes kept)
         */
        public Builder maxDepthSamples(int n) {
            if (n < 1) {
                throw bad("maxDepthSamples", "must be >= 1, got " + n);
            }
            this.maxDepthSamples = n;
            return this;
        }

        /** @param f factory of the host threads; default: daemon platform threads named after the pipeline */
        public Builder threadFactory(ThreadFactory f) {
            this.threadFactory = f;
            return this;
        }

        /**
         * @return the configuration
         * @throws IllegalArgumentException naming the option when the configuration is incomplete or inconsistent
         */
        public PipelineConfig build() {
            if (pools.isEmpty()) {
                throw bad("pool", "missing: add at least one pool");
            }
            if (lanes.isEmpty()) {
                throw bad("lane", "missing: add at least one lane");
            }
            int producers = lanes.stream().mapToInt(LaneSpec::producer).max().orElse(0) + 1;
            if (drainShards > producers) {
                throw bad("drainShards", "must be <= producers (" + producers + "), got " + drainShards);
            }
            if (threadFactory == null) {
                threadFactory = HostThreads.daemonFactory(name);
            }
            if (externalProducers && mappedFile == null) {
                throw bad("externalProducers", "needs a mappedFile for the producers to map");
            }
            if (producerAlive != null && !externalProducers) {
                throw bad("producerLiveness", "applies only to externalProducers (lanes have no owner process)");
            }
            return new PipelineConfig(this);
        }
    }
}
