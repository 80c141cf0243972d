package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.Hazard;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DependencyFlowsTest {
    /** Tasks 1 to 4 ran first at 10, 20, 30, 40 ns; task 5 never ran on a core. */
    private static FirstRuns runs() {
        return FirstRuns.of(new long[] {1, 2, 3, 4, 1}, new long[] {10, 20, 30, 40, 50}, new int[] {7, 8, 9, 7, 8});
    }

    @Test
    void firstRunsKeepEachTasksFirstRecord() throws IOException {
        FirstRuns r = runs();
        assertThat(r.count()).isEqualTo(4);
        assertThat(r.index(1)).isZero();
        assertThat(r.startNs(r.index(1))).isEqualTo(10);  // not the second run's 50
        assertThat(r.funcId(r.index(4))).isEqualTo(7);
        assertThat(r.index(5)).isEqualTo(-1);
        assertThat(FirstRuns.read((ChunkReader) null).count()).isZero();
    }

    @Test
    void oneArrowPerPairWithBothRunsInStartOrderNumberedInEdgeOrder() {
        List<Edge> edges = List.of(
                Edge.explicit(1, 3),                          // arrow 1
                Edge.tensor(2, 3, 5, 0, Hazard.RAW),          // arrow 2
                Edge.tensor(1, 3, 6, 1, Hazard.RAW),          // the pair 1->3 again: no arrow
                Edge.explicit(5, 3),                          // 5 never ran: no arrow
                Edge.explicit(4, 2),                          // 4 started after 2: no arrow
                Edge.explicit(1, 4),                          // arrow 3
                Edge.explicit(3, 4),                          // arrow 4
                Edge.explicit(1, 3));                         // 1->3 in a later group of 3's edges: arrow 5
        DependencyFlows f = DependencyFlows.of(edges, runs());
        assertThat(f.count()).isEqualTo(5);
        SliceFlows one = f.take(1);
        assertThat(one.name()).isEqualTo(DependencyFlows.NAME);
        assertThat(one.out()).containsExactly(1, 3, 5);
        assertThat(one.in()).isEmpty();
        SliceFlows three = f.take(3);
        assertThat(three.out()).containsExactly(4);
        assertThat(three.in()).containsExactly(1, 2, 5);
        assertThat(f.take(4).in()).containsExactly(3, 4);
        assertThat(f.take(2).out()).containsExactly(2);
        assertThat(f.take(1)).isSameAs(SliceFlows.NONE);   // a later run of the task
        assertThat(f.take(5)).isSameAs(SliceFlows.NONE);   // never ran
        assertThat(f.take(99)).isSameAs(SliceFlows.NONE);
    }

    @Test
    void aTaskWithoutArrowsAndNoArrowsAtAll() {
        DependencyFlows f = DependencyFlows.of(List.of(Edge.explicit(2, 1)), runs());
        assertThat(f.count()).isZero();
        assertThat(f.take(1)).isSameAs(SliceFlows.NONE);
        assertThat(DependencyFlows.none().count()).isZero();
        assertThat(DependencyFlows.none().take(1)).isSameAs(SliceFlows.NONE);
    }
}
