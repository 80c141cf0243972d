package dev.dfx.runtime.subsystem;

import dev.dfx.chunk.ChunkWriter;
import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.DrainedBuffer;
import java.io.IOException;

/**
 * Appends each drained buffer to the subsystem's chunk file ({@code RUN/chunks/<subsystem>.dfx}) as one chunk:
 * kind id in the subsystem, lane number = the writer thread's instance (core, scheduler, 0 for the orchestrator),
 * the lane's buffer seq. Thread-safe (the chunk writer is); buffers of one lane arrive in seq order. Hands the
 * chunk writer's zero-block bitmap of large records to the pipeline ({@link DrainedBuffer#nonZeroBlocks}), so a
 * zeroed pool clears only the blocks the records filled; a kind whose plan gives its record spans
 * ({@link LanePlan#spans(dev.dfx.chunk.BufferKind, dev.dfx.chunk.RecordSpans)}) is scanned only there.
 */
public class ChunkCollector implements Collector {
    private final LanePlan plan;
    private final ChunkWriter chunks;

    /**
     * @param plan   the pipeline's lanes
     * @param chunks the subsystem's chunk file
     */
    public ChunkCollector(LanePlan plan, ChunkWriter chunks) {
        this.plan = plan;
        this.chunks = chunks;
    }

    @Override
    public void accept(DrainedBuffer b) throws IOException {
        LaneInfo l = plan.lane(b.lane());
        // the chunk writer's zero-block scan tells the pipeline which blocks a zeroed pool must clear
        chunks.append(l.kindId(), l.instance(), b.seq(), b.records(), b.recordCount(), plan.spans(l.kind()),
                b::nonZeroBlocks);
    }
}
