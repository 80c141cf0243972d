package dev.dfx.runtime;

import static dev.dfx.runtime.graph.Hazard.RAW;
import static dev.dfx.runtime.graph.Hazard.WAR;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.SubmitRecord;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.TaskGraph;
import dev.dfx.runtime.graph.TaskInfo;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.workload.Attention;
import dev.dfx.runtime.workload.Decoder;
import dev.dfx.runtime.workload.Flood;
import dev.dfx.runtime.workload.Gemm;
import dev.dfx.runtime.workload.Scoped;
import dev.dfx.runtime.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The graph the runtime reports equals the workload's intended graph, derived by hand for small
 * instances (task ids are submit order at ring 0, or ring 1 inside a depth-1 scope).
 */
@Timeout(30)
class WorkloadGraphTest {

    private static TaskGraph run(Workload w, int schedulers, int cores) {
        RunResult r = TaskRuntime.run(RuntimeConfig.defaults().withSchedulers(schedulers).withCores(cores),
                Probe.NONE, w);
        w.check();
        return r.graph();
    }

    private static int tensorId(TaskGraph g, String name) {
        return g.tasks().stream().flatMap(t -> t.args().stream()).filter(a -> a.tensorName().equals(name))
                .findFirst().orElseThrow().tensorId();
    }

    @Test
    void decoderOfThreeLayersOfTwoTasksIsAChainThroughXAndY() {
        // per layer l: matvec m_l = task 2l reads x, w_l, writes y; residual r_l = task 2l+1 reads y, rewrites x
        TaskGraph g = run(new Decoder(3, 1, 2, 8), 2, 3);
        int x = tensorId(g, "x");
        int y = tensorId(g, "y");
        assertThat(g.tasks()).extracting(TaskInfo::funcName)
                .containsExactly("matvec", "residual", "matvec", "residual", "matvec", "residual");
        assertThat(g.edges()).containsExactly(
                Edge.tensor(0, 1, y, 0, RAW), // r0 reads the y that m0 wrote
                Edge.tensor(0, 1, x, 1, WAR), // r0 rewrites the x that m0 read
                Edge.tensor(1, 2, x, 0, RAW), // m1 reads r0's x
                Edge.tensor(1, 2, y, 2, WAR), // m1 rewrites the y r0 read (r0 follows m0: no WAW needed)
                Edge.tensor(2, 3, y, 0, RAW),
                Edge.tensor(2, 3, x, 1, WAR), // r1 rewrites x after m1 read it (m1 follows r0: no RAW on r0)
                Edge.tensor(3, 4, x, 0, RAW),
                Edge.tensor(3, 4, y, 2, WAR),
                Edge.tensor(4, 5, y, 0, RAW),
                Edge.tensor(4, 5, x, 1, WAR));
    }

    @Test
    void gemmOfTwoByTwoTilesChainsEachCTileOverK() {
        // 4x4 matrices, 2x2 tiles: k = 0 tasks 0..3 write C tiles (i,j) = (0,0),(0,1),(1,0),(1,1);
        // k = 1 tasks 4..7 accumulate into the same tiles. A and B are only read: no edges.
        TaskGraph g = run(new Gemm(4, 2), 1, 2);
        int c = tensorId(g, "C");
        assertThat(g.tasks()).hasSize(8);
        assertThat(g.edges()).containsExactly(
                Edge.tensor(0, 4, c, 2, RAW),
                Edge.tensor(1, 5, c, 2, RAW),
                Edge.tensor(2, 6, c, 2, RAW),
                Edge.tensor(3, 7, c, 2, RAW));
    }

    @Test
    void attentionMergesPagesAndChainsDecodeSteps() {
        // one sequence of 40 tokens in 32-token pages (2 pages), one head, two decode steps:
        // step 0: page tasks 0, 1 write partial[0], partial[1]; reduce 2 reads both, writes q1
        // step 1: page tasks 3, 4 read q1 and rewrite the partials reduce 2 read; reduce 5 reads them
        TaskGraph g = run(new Attention(new int[] {40}, 1, 8, 32, 2), 1, 2);
        int partial = tensorId(g, "partial");
        int q1 = tensorId(g, "q1");
        assertThat(g.tasks()).extracting(TaskInfo::funcName)
                .containsExactly("page_attn", "page_attn", "reduce", "page_attn", "page_attn", "reduce");
        assertThat(g.edges()).containsExactly(
                Edge.tensor(0, 2, partial, 0, RAW),
                Edge.tensor(1, 2, partial, 0, RAW),
                Edge.tensor(2, 3, q1, 0, RAW),
                Edge.tensor(2, 3, partial, 3, WAR),
                Edge.tensor(2, 4, q1, 0, RAW),
                Edge.tensor(2, 4, partial, 3, WAR),
                Edge.tensor(3, 5, partial, 0, RAW),
                Edge.tensor(4, 5, partial, 0, RAW));
    }

    @Test
    void floodHasNoEdges() {
        TaskGraph g = run(new Flood(500, 4), 2, 2);
        assertThat(g.tasks()).hasSize(500);
        assertThat(g.edges()).isEmpty();
        assertThat(g.tasks()).allSatisfy(t -> assertThat(t.ring()).isZero());
    }

    @Test
    void scopedSumsDependExplicitlyOnTheirBurstOnlyAndUseRingOne() {
        // 3 manual scopes at depth 1 (ring 1): per burst 4 axpb tasks then a sum with explicit deps on them
        TaskGraph g = run(new Scoped(3, 4, 2), 1, 2);
        assertThat(g.tasks()).hasSize(15);
        List<Edge> expected = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            long sum = (1L << 32) | (b * 5 + 4);
            for (int t = 0; t < 4; t++) {
                expected.add(Edge.explicit((1L << 32) | (b * 5 + t), sum));
            }
        }
        assertThat(g.edges()).containsExactlyElementsOf(expected);
        assertThat(g.tasks()).allSatisfy(t -> {
            assertThat(t.ring()).isEqualTo(1);
            assertThat(t.flags()).isEqualTo(SubmitRecord.IN_MANUAL_SCOPE);
        });
        Map<Long, TaskInfo> byId = g.byId();
        assertThat(byId.get((1L << 32) | 4).explicitDeps()).containsExactly(1L << 32, (1L << 32) | 1, (1L << 32) | 2,
                (1L << 32) | 3);
    }
}
