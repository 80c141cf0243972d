package dev.dfx.runtime.subsystem;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkWriter;
import dev.dfx.chunk.RecordSpans;
import dev.dfx.error.BadInputException;
import dev.dfx.pipeline.ArenaAckHook;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.pipeline.PoolSpec;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.ThreadRole;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The lanes of one subsystem's pipeline: a pool per record kind used (sized by {@link PoolSizes}), a lane per
 * (kind, writer thread), producers numbered compactly in order of first use (one per runtime thread that writes
 * this subsystem), and the map back from a pipeline lane to what the chunk file and run.json call it (kind id in
 * the subsystem, thread role, instance). Not thread-safe: built on one thread before the pipeline starts.
 */
public final class LanePlan {
    private final Subsystem subsystem;
    private final PipelineSettings settings;
    private final PipelineConfig.Builder builder;
    private final Map<BufferKind, Integer> pools = new HashMap<>();
    private final List<BufferKind> kinds = new ArrayList<>();
    private final Map<String, Integer> producers = new HashMap<>();
    private final Map<String, Integer> lanesByName = new HashMap<>();
    private final List<LaneInfo> lanes = new ArrayList<>();
    private final Set<BufferKind> zeroed = new HashSet<>();
    private final Map<BufferKind, RecordSpans> spans = new HashMap<>();
    private long arenaBytes;

    /**
     * @param subsystem the subsystem whose pipeline this is
     * @param settings  pool sizes and backpressure knobs
     */
    public LanePlan(Subsystem subsystem, PipelineSettings settings) {
        this.subsystem = subsystem;
        this.settings = settings;
        this.builder = PipelineConfig.builder(subsystem.id()).policy(settings.policy()).backstop(settings.backstop())
                .stallThreshold(settings.stallThreshold());
    }

    /** @return the subsystem */
    public Subsystem subsystem() {
        return subsystem;
    }

    /**
     * Adds the lane of {@code kind} written by thread ({@code role}, {@code instance}).
     *
     * @param kind one of the subsystem's record kinds
     * @return the pipeline lane index
     * @throws IllegalArgumentException when {@code kind} is not the subsystem's or the lane exists already
     * @throws BadInputException        naming the {@code --pool} option when the kind's pool is not valid
     */
    public int lane(BufferKind kind, ThreadRole role, int instance) {
        if (!subsystem.kinds().contains(kind)) {
            throw new IllegalArgumentException(kind.name() + " is not a kind of " + subsystem.id());
        }
        String name = kind.name() + "/" + role.id() + "/" + instance;
        if (lanesByName.containsKey(name)) {
            throw new IllegalArgumentException("lane " + name + " added twice");
        }
        int pool = pools.computeIfAbsent(kind, k -> {
            kinds.add(k);
            try {
                PoolSpec spec = settings.pools().spec(k);
                return builder.pool(zeroed.contains(k) ? spec.asZeroed() : spec);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(settings.pools().origin(k) + ": " + e.getMessage(), e);
            }
        });
        int producer = producers.computeIfAbsent(role.id() + "/" + instance, k -> producers.size());
        int lane = builder.lane(pool, producer);
        lanes.add(new LaneInfo(lane, kind, role, instance, producer));
        lanesByName.put(name, lane);
        return lane;
    }

    /**
     * Makes the pool of {@code kind} zeroed ({@link PoolSpec#zeroed()}): every slot a lane claims holds zeros, so a
     * probe of sparse records stores only their non-zero fields. Call before the kind's first {@link #lane}.
     *
     * @throws IllegalStateException when the kind already has lanes
     */
    public void zeroed(BufferKind kind) {
        if (pools.containsKey(kind)) {
            throw new IllegalStateException(kind.name() + ": pool already built; mark it zeroed before its first lane");
        }
        zeroed.add(kind);
    }

    /**
     * Says where the records of {@code kind} can hold a non-zero byte, so that the chunk collector's zero-block scan
     * reads only those bytes of each record ({@link ChunkWriter#append(int, int, long, java.lang.foreign.MemorySegment,
     * int, RecordSpans, java.util.function.ObjIntConsumer)}). Call while planning, before the pipeline starts.
     */
    public void spans(BufferKind kind, RecordSpans recordSpans) {
        spans.put(kind, recordSpans);
    }

    /** @return the spans given for {@code kind} ({@link #spans(BufferKind, RecordSpans)}), or null: scan every byte */
    public RecordSpans spans(BufferKind kind) {
        return spans.get(kind);
    }

    /**
     * @return the pipeline lane of {@code kind} written by thread ({@code role}, {@code instance}), or -1 when the
     *         plan has none
     */
    public int laneOf(BufferKind kind, ThreadRole role, int instance) {
        return lanesByName.getOrDefault(kind.name() + "/" + role.id() + "/" + instance, -1);
    }

    /**
     * Gives a lane a payload arena.
     *
     * @param bytes arena size, at least 64 and a multiple of 8
     */
    public void payloadArena(int lane, long bytes) {
        builder.payloadArena(lane, bytes);
        arenaBytes += bytes;
    }

    /** @param hook run once per replenisher tick (the {@code args} subsystem's arena acknowledgements) */
    public void arenaAckHook(ArenaAckHook hook) {
        builder.arenaAckHook(hook);
    }

    /** @return every lane, by pipeline lane index */
    public List<LaneInfo> lanes() {
        return List.copyOf(lanes);
    }

    /** @return lane {@code lane}'s description */
    public LaneInfo lane(int lane) {
        return lanes.get(lane);
    }

    /** @return the buffer kind of pipeline kind index {@code kind} */
    public BufferKind kind(int kind) {
        return kinds.get(kind);
    }

    /** @return bytes of buffers and arenas the pipeline allocates at startup (queues and counters not included) */
    public long memoryBytes() {
        long n = arenaBytes;
        for (LaneInfo l : lanes) {
            PoolSize p = settings.pools().of(l.kind());
            n += (long) p.buffersPerLane() * p.recordsPerBuffer() * l.kind().recordSize();
        }
        return n;
    }

    /**
     * @return the pipeline configuration: one drain shard per 4 CPUs (at least 1, at most one per producer)
     * @throws BadInputException naming the pipeline and the option when the configuration is not valid
     */
    public PipelineConfig build() {
        int cpus = Runtime.getRuntime().availableProcessors();
        builder.drainShards(Math.max(1, Math.min(producers.size(), cpus / 4)));
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }
}
