package dev.dfx.runtime.subsystem.deps;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.ArgRole;
import dev.dfx.record.Dtype;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TensorSlot;
import dev.dfx.runtime.GraphReplay;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the deps chunk file back into what each submit said and replays it ({@link GraphReplay}) into the run's
 * dependency edges. Records are walked in the orchestrator's order (seq order of its one lane), which is submit
 * order; overflow records are read as part of their chain. Stateless.
 */
public final class DepsReplay {
    /**
     * One tensor argument as its slot recorded it.
     *
     * @param argIndex    position among the task's arguments
     * @param tensorId    the tensor's id
     * @param name        the tensor's name (up to 32 ASCII bytes)
     * @param role        input, output or in-out
     * @param dtype       element type
     * @param bufferNumel elements in the whole tensor
     * @param version     writes submitted to the tensor before the task
     * @param startOffset first element of the region (row-major index)
     * @param shape       region extent per dimension
     * @param strides     the tensor's strides in elements
     * @param marked      whether the program marked it for dumping
     */
    public record TensorArg(int argIndex, long tensorId, String name, ArgRole role, Dtype dtype, long bufferNumel,
                            long version, long startOffset, int[] shape, int[] strides, boolean marked) {
    }

    /**
     * One submit.
     *
     * @param taskId       task id
     * @param flags        submit flags
     * @param funcId       kernel id slot 0 (the function)
     * @param explicitDeps explicit deps, the chain's all
     * @param tensors      tensor arguments in argument order
     */
    public record Submit(long taskId, int flags, int funcId, long[] explicitDeps, List<TensorArg> tensors) {
    }

    /**
     * @param submits every submit in submit order
     * @param edges   the replayed edges in resolution order
     */
    public record Result(List<Submit> submits, List<Edge> edges) {
    }

    private DepsReplay() {
    }

    /**
     * @param deps the deps chunk file, or null (no submits)
     * @return the submits and their edges
     * @throws IOException never in practice (the chunk file is mapped)
     * @throws dev.dfx.error.BadInputException when an overflow chain is broken, naming the byte offset
     */
    public static Result replay(ChunkReader deps) throws IOException {
        List<Submit> submits = new ArrayList<>();
        GraphReplay replay = new GraphReplay();
        if (deps == null) {
            return new Result(submits, replay.edges());
        }
        SubmitRecord.View head = new SubmitRecord.View();
        TensorSlot.View slot = new TensorSlot.View();
        ChunkRecords.forEach(deps, SubmitRecord.KIND, (lane, seg, off) -> {
            head.wrap(seg, off);
            if ((head.flags() & SubmitRecord.OVERFLOW) != 0) {
                return; // read with its chain's head
            }
            long[] explicit = SubmitRecord.readExplicitDeps(seg, off);
            List<TensorArg> tensors = new ArrayList<>(head.tensorCount());
            List<GraphReplay.TensorArg> access = new ArrayList<>(head.tensorCount());
            for (int s = 0; s < head.tensorCount(); s++) {
                head.tensor(s, slot);
                int nd = slot.ndims();
                int[] shape = new int[nd];
                int[] strides = new int[nd];
                for (int d = 0; d < nd; d++) {
                    shape[d] = (int) slot.shape(d);
                    strides[d] = (int) slot.stride(d);
                }
                TensorArg a = new TensorArg((int) slot.argIndex(), slot.tensorId(), slot.name(), slot.role(),
                        slot.dtype(), slot.bufferNumel(), slot.version(), slot.startOffset(), shape, strides,
                        (slot.flags() & TensorSlot.FLAG_MARKED) != 0);
                tensors.add(a);
                access.add(GraphReplay.TensorArg.ofOffset(a.argIndex(), (int) a.tensorId(), a.role(), a.startOffset(),
                        shape, strides));
            }
            replay.submit(head.taskId(), head.flags(), explicit, access);
            submits.add(new Submit(head.taskId(), head.flags(), head.kernelId(0), explicit, List.copyOf(tensors)));
        });
        return new Result(submits, replay.edges());
    }
}
