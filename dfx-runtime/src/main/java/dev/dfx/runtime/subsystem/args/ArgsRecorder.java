package dev.dfx.runtime.subsystem.args;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkWriter;
import dev.dfx.io.OwnerOnly;
import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.PayloadArena;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.probe.RuntimeShape;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.runtime.subsystem.LaneInfo;
import dev.dfx.runtime.subsystem.LanePlan;
import dev.dfx.rundir.OutputFile;
import dev.dfx.runtime.subsystem.PipelineSettings;
import dev.dfx.runtime.subsystem.PoolSize;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.rundir.ThreadRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code args} subsystem: one 128-byte record per captured task argument, written by the scheduler that captures
 * it (one lane per scheduler), and the tensor's bytes in that lane's payload arena (monotonic cursor; the producer
 * waits at a wrap until the host has persisted every payload it published). The collector copies each payload into
 * {@code args/args.bin} ({@link PayloadFile}) and the arena-ack hook ({@link ArenaAcks}) acknowledges what was
 * copied; after the run {@code args/args.json} ({@link ArgsJson}) describes every argument.
 *
 * <p>Levels (the reference's dump levels): 1 marked arguments (record and payload), 2 every argument with its
 * payload, 3 every argument's record, payloads of marked ones only.
 */
public final class ArgsRecorder extends SubsystemRecorder {
    /** Lowest and highest level that records anything. */
    public static final int MIN_LEVEL = 1, MAX_LEVEL = 3;
    /** Arena bytes per record slot of the lane's pool (the reference sizes arenas by an average tensor). */
    public static final long ARENA_BYTES_PER_RECORD = 8 << 10;
    /** Smallest arena. */
    public static final long MIN_ARENA_BYTES = 1 << 20;

    private final int level;
    private final int[] lanes;
    private final long arenaBytes;
    private final ArenaAcks acks = new ArenaAcks();
    private PayloadFile payloads;
    private ArgsCollector collector;

    /**
     * @param level    1..3
     * @param shape    the run's threads
     * @param settings pools and backpressure
     * @throws IllegalArgumentException when {@code level} is not 1..3
     */
    public ArgsRecorder(int level, RuntimeShape shape, PipelineSettings settings) {
        super(new LanePlan(Subsystem.ARGS, settings));
        if (level < MIN_LEVEL || level > MAX_LEVEL) {
            throw new IllegalArgumentException("args level " + level + " outside 1..3");
        }
        this.level = level;
        arenaBytes = arenaBytes(settings.pools().of(ArgRecord.KIND));
        lanes = new int[shape.schedulers()];
        for (int s = 0; s < lanes.length; s++) {
            lanes[s] = plan.lane(ArgRecord.KIND, ThreadRole.SCHEDULER, s);
            plan.payloadArena(lanes[s], arenaBytes);
        }
        plan.arenaAckHook(acks);
    }

    /** @return the arena size of each lane: 8 KiB per record slot of its pool, at least 1 MiB */
    public static long arenaBytes(PoolSize pool) {
        return Math.max(MIN_ARENA_BYTES, (long) pool.buffersPerLane() * pool.recordsPerBuffer() * ARENA_BYTES_PER_RECORD);
    }

    @Override
    protected Collector collector(Path runDir, ChunkWriter chunks) throws IOException {
        Path folder = runDir.resolve(ArgsJson.FOLDER);
        OwnerOnly.createFolders(folder);
        payloads = new PayloadFile(folder.resolve(ArgsJson.BIN));
        collector = new ArgsCollector(plan, chunks, payloads, this::arena, acks);
        return collector;
    }

    private PayloadArena arena(int lane) {
        return pipeline().payloadArena(lane);
    }

    /** Points the ack hook at the arenas once the pipeline exists. */
    @Override
    protected void started() {
        acks.attach(pipeline(), lanes);
    }

    @Override
    public SchedulerProbe scheduler(int scheduler) {
        int lane = lanes[scheduler];
        return new ArgsProbe(writer(lane), pipeline().payloadArena(lane), level);
    }

    @Override
    protected void afterStop() throws IOException {
        payloads.close();
    }

    @Override
    public List<OutputFile> export(Path runDir) throws IOException {
        try (ChunkReader r = ChunkRecords.open(runDir, Subsystem.ARGS)) {
            return ArgsJson.write(r, collector.index(), level, stats(), droppedPayloads(),
                    runDir.resolve(ArgsJson.FOLDER));
        }
    }

    private long droppedPayloads() {
        long n = 0;
        for (LaneInfo l : plan.lanes()) {
            n += pipeline().payloadArena(l.lane()).droppedPayloads();
        }
        return n;
    }

    @Override
    public Map<String, Object> details() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("level", level);
        m.put("arena_bytes_per_lane", arenaBytes);
        m.put("payload_bytes", payloads == null ? 0 : payloads.bytes());
        m.put("dropped_payloads", pipeline() == null ? 0 : droppedPayloads());
        return m;
    }
}
