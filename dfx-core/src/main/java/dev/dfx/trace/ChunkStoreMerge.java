package dev.dfx.trace;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.LaneSequence;

import java.util.List;

/**
 * Merges all lanes of a run directory's chunk files in time order: one {@link ChunkLaneQueue} per (file, kind,
 * lane) whose kind has a timestamp field. Queue order, which decides timestamp ties, is the order of
 * {@code readers}, then kind id, then unsigned lane (the order of {@link ChunkReader#lanes()}). Lanes of kinds
 * without a timestamp field are left out; read them with {@link ChunkReader#lanes()}.
 *
 * <p>Typical use, printing a run in time order:
 * <pre>{@code
 * List<ChunkReader> readers = ChunkStore.openAll(runDir);
 * QueueHeapMerge<ChunkLaneQueue> merge = ChunkStoreMerge.of(readers);
 * for (int q; (q = merge.next()) != QueueHeapMerge.NONE; ) {
 *     ChunkLaneQueue lane = merge.queue(q);
 *     print(lane.kind(), lane.lane(), lane.records(), lane.offset());
 * }
 * }</pre>
 *
 * <p>Stateless; thread-safe. The merge it returns is not (see {@link QueueHeapMerge}).
 */
public final class ChunkStoreMerge {
    private ChunkStoreMerge() {
    }

    /**
     * @param readers open chunk files; they must stay open while the merge is used
     * @return a merge over every timed lane of {@code readers}
     */
    public static QueueHeapMerge<ChunkLaneQueue> of(List<ChunkReader> readers) {
        QueueHeapMerge<ChunkLaneQueue> merge = new QueueHeapMerge<>();
        for (ChunkReader r : readers) {
            for (LaneSequence lane : r.lanes()) {
                if (r.kind(lane.kind()).hasTimestamp()) {
                    merge.add(new ChunkLaneQueue(r, lane));
                }
            }
        }
        return merge;
    }
}
