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

    /**
     * Appends the chunk and copies its payloads. When a write fails, every payload of the buffer is still
     * acknowledged (it is lost with the buffer, whose records count as lost), so that the producer never waits at
     * an arena wrap for bytes that will not be written; the failure is thrown at the end.
     */
    @Override
    public void accept(DrainedBuffer b) throws IOException {
        IOException failure = null;
        boolean inChunkFile = true;
        try {
            super.accept(b);
        } catch (IOException e) {
            failure = e;
            inChunkFile = false;
        }
        LaneInfo lane = plan.lane(b.lane());
        PayloadArena arena = arenas.apply(b.lane());
        PayloadIndex where = index.computeIfAbsent(lane.instance(), k -> new PayloadIndex());
        ArgRecord.View v = new ArgRecord.View();
        for (int i = 0; i < b.recordCount(); i++) {
            v.wrap(b.records(), (long) i * b.recordSize());
            if (v.payloadOffset() != ArgRecord.NO_PAYLOAD) {
                long at = -1;
                if (failure == null) {
                    try {
                        at = payloads.append(arena.read(v.payloadOffset(), v.payloadSize()));
                    } catch (IOException e) {
                        failure = e;
                    }
                }
                if (inChunkFile) {
                    where.add(at); // -1: the record is in the chunk file, its payload is not in args.bin
                }
                acks.persisted(b.lane());
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** @return per lane number (scheduler), where its payloads went; read after the pipeline stopped */
    Map<Integer, PayloadIndex> index() {
        return index;
    }
}
