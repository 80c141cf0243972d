package dev.dfx.runtime.subsystem.deps;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.LaneSequence;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TensorSlot;
import dev.dfx.runtime.GraphReplay;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks the deps chunk file's submits ({@link #forEachSubmit}) and replays them ({@link GraphReplay}) into the run's
 * dependency edges ({@link #replay}; of a damaged file, those of the submits before its first loss,
 * {@link #replayUnbroken}). Records are walked in the orchestrator's order (seq order of its one lane),
 * which is submit order; overflow records are read as part of their chain. Nothing of a submit is kept beyond its
 * visit: {@code deps.json} streams the submits from the chunk file ({@link DepsJson}), and the replay keeps only the
 * tensor map and the edges, so that the post-recording work neither holds every submit in the heap nor pays the
 * garbage collector for copying them. Stateless.
 */
public final class DepsReplay {
    /** Receives one submit, in submit order. */
    @FunctionalInterface
    public interface SubmitVisitor {
        /**
         * @param head         the submit's head record, valid during this call only; its tensor slots are read with
         *                     {@link SubmitRecord.View#tensor}
         * @param explicitDeps the chain's explicit deps, all of them (overflow records included)
         * @throws IOException when the visitor's output fails
         */
        void submit(SubmitRecord.View head, long[] explicitDeps) throws IOException;
    }

    private DepsReplay() {
    }

    /**
     * @param deps the deps chunk file, or null (no submits)
     * @param v    receives every submit, in submit order
     * @return submits visited
     * @throws IOException from the visitor
     * @throws dev.dfx.error.BadInputException when an overflow chain is broken, naming the byte offset
     */
    public static long forEachSubmit(ChunkReader deps, SubmitVisitor v) throws IOException {
        return walk(deps, ChunkRecords::forEach, v);
    }

    /** A walk over the submit records of a chunk file: all of them, or only those before the first loss. */
    @FunctionalInterface
    private interface Walk {
        long records(ChunkReader deps, BufferKind kind, ChunkRecords.Visitor v) throws IOException;
    }

    private static long walk(ChunkReader deps, Walk records, SubmitVisitor v) throws IOException {
        if (deps == null) {
            return 0;
        }
        SubmitRecord.View head = new SubmitRecord.View();
        long[] submits = {0};
        records.records(deps, SubmitRecord.KIND, (lane, seg, off) -> {
            head.wrap(seg, off);
            if ((head.flags() & SubmitRecord.OVERFLOW) != 0) {
                return; // read with its chain's head
            }
            v.submit(head, SubmitRecord.readExplicitDeps(seg, off));
            submits[0]++;
        });
        return submits[0];
    }

    /**
     * @param deps the deps chunk file, or null (no submits)
     * @return the replayed edges in resolution order
     * @throws IOException never in practice (the chunk file is mapped)
     * @throws dev.dfx.error.BadInputException when an overflow chain is broken, naming the byte offset
     */
    public static List<Edge> replay(ChunkReader deps) throws IOException {
        GraphReplay replay = new GraphReplay();
        walk(deps, ChunkRecords::forEach, into(replay));
        return replay.edges();
    }

    /**
     * The replay of the submits before a damaged deps file's first loss.
     *
     * @param edges   their edges in resolution order: exactly the edges into these submits that a replay of the whole
     *                file gives, in the same order (an edge only ever points from an earlier submit to a later one, and
     *                the replay of a submit reads only the submits before it)
     * @param submits submits replayed
     * @param end     byte offset just past the last chunk replayed; 0 when none was
     */
    public record Unbroken(List<Edge> edges, long submits, long end) {
    }

    /**
     * Replays only the submits of each lane's {@link dev.dfx.chunk.LaneSequence#unbroken() unbroken} chunks: from the
     * first buffer up to the first one missing (a file cut short, a chunk skipped for its checksum). A submit after a
     * lost one may depend on a tensor that a lost submit wrote, so replaying it would draw an edge from the wrong
     * task; the submits before the loss give their true edges. For a file without loss this is {@link #replay}.
     *
     * @param deps the deps chunk file as a lenient reader left it (its intact chunks), or null (no submits)
     * @return the edges, with how many submits they cover and where in the file those end
     * @throws IOException never in practice (the chunk file is mapped)
     * @throws dev.dfx.error.BadInputException when an overflow chain is broken (within one intact chunk: the writer's
     *                                         fault, not the damage's), naming the byte offset
     */
    public static Unbroken replayUnbroken(ChunkReader deps) throws IOException {
        GraphReplay replay = new GraphReplay();
        long submits = walk(deps, ChunkRecords::forEachUnbroken, into(replay));
        long end = 0;
        if (deps != null) {
            for (LaneSequence lane : deps.lanes()) {
                if (lane.kind() == SubmitRecord.KIND.id() && !lane.unbroken().isEmpty()) {
                    end = Math.max(end, lane.unbroken().getLast().end());
                }
            }
        }
        return new Unbroken(replay.edges(), submits, end);
    }

    /** @return a visitor that feeds each submit to {@code replay} */
    private static SubmitVisitor into(GraphReplay replay) {
        TensorSlot.View slot = new TensorSlot.View();
        List<GraphReplay.TensorArg> access = new ArrayList<>(SubmitRecord.MAX_TENSORS);
        return (head, explicit) -> {
            access.clear();
            for (int s = 0; s < head.tensorCount(); s++) {
                head.tensor(s, slot);
                int nd = slot.ndims();
                int[] shape = new int[nd];
                int[] strides = new int[nd];
                for (int d = 0; d < nd; d++) {
                    shape[d] = (int) slot.shape(d);
                    strides[d] = (int) slot.stride(d);
                }
                access.add(GraphReplay.TensorArg.ofOffset((int) slot.argIndex(), (int) slot.tensorId(), slot.role(),
                        slot.startOffset(), shape, strides));
            }
            replay.submit(head.taskId(), head.flags(), explicit, access);
        };
    }
}
