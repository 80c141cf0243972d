package dev.dfx.runtime.subsystem.args;

import dev.dfx.chunk.ChunkWriter;
import dev.dfx.pipeline.DrainedBuffer;
import dev.dfx.pipeline.PayloadArena;
import dev.dfx.record.ArgRecord;
import dev.dfx.runtime.subsystem.ChunkCollector;
import dev.dfx.runtime.subsystem.LaneInfo;
import dev.dfx.runtime.subsystem.LanePlan;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The args collector: appends the buffer as a chunk, then copies the payload of each record that has one out of
 * the lane's arena into {@code args.bin}, notes where it went ({@link PayloadIndex}), and counts it persisted for
 * the arena acknowledgement. Buffers of one lane arrive in seq order on one collector thread.
 */
final class ArgsCollector extends ChunkCollector {
    private final LanePlan plan;
    private final PayloadFile payloads;
    private final IntFunction<PayloadArena> arenas;
    private final ArenaAcks acks;
    private final Map<Integer, PayloadIndex> index = new ConcurrentHashMap<>();

    ArgsCollector(LanePlan plan, ChunkWriter chunks, PayloadFile payloads, IntFunction<PayloadArena> arenas,
                  ArenaAcks acks) {
        super(plan, chunks);
        this.plan = plan;
        this.payloads = payloads;
        this.arenas = arenas;
        this.acks = acks;
    }

    @Override
    public void accept(DrainedBuffer b) throws IOException {
        super.accept(b);
        LaneInfo lane = plan.lane(b.lane());
        PayloadArena arena = arenas.apply(b.lane());
        PayloadIndex where = index.computeIfAbsent(lane.instance(), k -> new PayloadIndex());
        ArgRecord.View v = new ArgRecord.View();
        for (int i = 0; i < b.recordCount(); i++) {
            v.wrap(b.records(), (long) i * b.recordSize());
            if (v.payloadOffset() != ArgRecord.NO_PAYLOAD) {
                where.add(payloads.append(arena.read(v.payloadOffset(), v.payloadSize())));
                acks.persisted(b.lane());
            }
        }
    }

    /** @return per lane number (scheduler), where its payloads went; read after the pipeline stopped */
    Map<Integer, PayloadIndex> index() {
        return index;
    }
}
