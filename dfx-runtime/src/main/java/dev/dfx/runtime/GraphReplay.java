package dev.dfx.runtime;

import dev.dfx.record.ArgRole;
import dev.dfx.record.SubmitRecord;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.Hazard;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a run's dependency edges on the host from what each submit said (the {@code deps} subsystem's submit
 * records), through the same tensor map the resolving scheduler used: explicit deps first, then, outside manual
 * scopes, each tensor argument in argument order. Fed in submit order, it yields the edges of
 * {@link dev.dfx.runtime.graph.TaskGraph#edges()} in the same order (the reference's dep_gen replay).
 *
 * <p>Tensor releases are not replayed: a released tensor is never named again (ids are unique per run), so they
 * change no edge. Not thread-safe; one replay per run.
 */
public final class GraphReplay {
    /**
     * One tensor argument of a submit.
     *
     * @param argIndex position among the task's arguments
     * @param tensorId the tensor's id
     * @param role     how the task accesses it
     * @param start    first index per dimension
     * @param shape    extent per dimension (each at least 1)
     * @param strides  the tensor's row-major strides in elements
     */
    public record TensorArg(int argIndex, int tensorId, ArgRole role, int[] start, int[] shape, int[] strides) {
        /**
         * @param startOffset index of the region's first element in the tensor's row-major array
         * @param shape       region extent per dimension
         * @param strides     the tensor's row-major strides (descending, the last 1)
         * @return the argument, with the start index per dimension recovered from {@code startOffset}
         */
        public static TensorArg ofOffset(int argIndex, int tensorId, ArgRole role, long startOffset, int[] shape,
                                         int[] strides) {
            int[] start = new int[shape.length];
            long rest = startOffset;
            for (int d = 0; d < shape.length; d++) {
                start[d] = (int) (rest / strides[d]);
                rest -= (long) start[d] * strides[d];
            }
            return new TensorArg(argIndex, tensorId, role, start, shape.clone(), strides.clone());
        }
    }

    /** A replayed task: identity is all the tensor map needs. */
    private record Node(long id) {
    }

    private final TensorMap<Node> map = new TensorMap<>();
    private final List<Edge> edges = new ArrayList<>();
    private final TensorMap.Sink<Node> sink = this::tensorEdge;
    private int firstEdgeOfTask;

    /**
     * Replays one submit; call in submit order.
     *
     * @param taskId       the task id
     * @param flags        its submit flags ({@link SubmitRecord#IN_MANUAL_SCOPE}: explicit deps only)
     * @param explicitDeps its explicit deps
     * @param tensors      its tensor arguments, in argument order
     */
    public void submit(long taskId, int flags, long[] explicitDeps, List<TensorArg> tensors) {
        firstEdgeOfTask = edges.size();
        for (long d : explicitDeps) {
            Resolver.addOnce(edges, firstEdgeOfTask, Edge.explicit(d, taskId));
        }
        if ((flags & SubmitRecord.IN_MANUAL_SCOPE) == 0) {
            Node n = new Node(taskId);
            for (TensorArg a : tensors) {
                map.access(n, a.tensorId(), Region.replayed(a.start(), a.shape(), a.strides()), a.role(), a.argIndex(),
                        sink);
            }
        }
    }

    private void tensorEdge(Node pred, Node succ, int tensorId, int argIndex, Hazard hazard) {
        Resolver.addOnce(edges, firstEdgeOfTask, Edge.tensor(pred.id(), succ.id(), tensorId, argIndex, hazard));
    }

    /** @return every edge so far, in resolution order (a copy) */
    public List<Edge> edges() {
        return List.copyOf(edges);
    }
}
