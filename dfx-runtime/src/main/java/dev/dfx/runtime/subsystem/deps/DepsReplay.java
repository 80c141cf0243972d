package dev.dfx.runtime.subsystem.deps;

import dev.dfx.chunk.ChunkReader;
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
 * dependency edges ({@link #replay}). Records are walked in the orchestrator's order (seq order of its one lane),
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
        if (deps == null) {
            return 0;
        }
        SubmitRecord.View head = new SubmitRecord.View();
        long[] submits = {0};
        ChunkRecords.forEach(deps, SubmitRecord.KIND, (lane, seg, off) -> {
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
        TensorSlot.View slot = new TensorSlot.View();
        List<GraphReplay.TensorArg> access = new ArrayList<>(SubmitRecord.MAX_TENSORS);
        forEachSubmit(deps, (head, explicit) -> {
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
        });
        return replay.edges();
    }
}
