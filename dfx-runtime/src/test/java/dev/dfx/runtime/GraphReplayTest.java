package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.ArgKind;
import dev.dfx.runtime.graph.ArgInfo;
import dev.dfx.runtime.graph.TaskGraph;
import dev.dfx.runtime.graph.TaskInfo;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Replaying what each submit said (explicit deps, flags, tensor regions given as a flat start offset, shape and
 * strides, as a deps record holds them) gives exactly the edges the schedulers resolved, in the same order.
 */
@Timeout(60)
class GraphReplayTest {
    static final List<String> NAMES = SmallWorkloads.NAMES;

    @ParameterizedTest
    @FieldSource("NAMES")
    void replayOfTheSubmitsGivesTheResolvedEdges(String name) {
        Workload w = SmallWorkloads.named(name).get();
        TaskGraph g = TaskRuntime.run(RuntimeConfig.defaults().withSchedulers(2).withCores(3), Probe.NONE, w).graph();
        GraphReplay replay = new GraphReplay();
        for (TaskInfo t : g.tasks()) {
            List<GraphReplay.TensorArg> tensors = new ArrayList<>();
            for (ArgInfo a : t.args()) {
                if (a.kind() == ArgKind.TENSOR) {
                    tensors.add(GraphReplay.TensorArg.ofOffset(a.index(), a.tensorId(), a.role(), a.startOffset(),
                            ints(a.shape()), ints(a.strides())));
                }
            }
            replay.submit(t.taskId(), t.flags(), t.explicitDeps().stream().mapToLong(Long::longValue).toArray(),
                    tensors);
        }
        assertThat(g.edges().isEmpty()).as("only flood's tasks are independent").isEqualTo(name.equals("flood"));
        assertThat(replay.edges()).containsExactlyElementsOf(g.edges());
    }

    @org.junit.jupiter.api.Test
    void startIndicesComeBackFromTheFlatOffset() {
        // a [4, 6, 5] tensor (strides 30, 5, 1): element (2, 3, 1) is at 2*30 + 3*5 + 1 = 76
        GraphReplay.TensorArg a = GraphReplay.TensorArg.ofOffset(0, 1, dev.dfx.record.ArgRole.INPUT, 76,
                new int[] {2, 2, 4}, new int[] {30, 5, 1});
        assertThat(a.start()).containsExactly(2, 3, 1);
    }

    private static int[] ints(List<Integer> l) {
        return l.stream().mapToInt(Integer::intValue).toArray();
    }
}
