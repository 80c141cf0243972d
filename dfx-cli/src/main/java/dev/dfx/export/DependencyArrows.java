package dev.dfx.export;

import dev.dfx.runtime.graph.Edge;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Draws one flow arrow ({@code s} at the predecessor's core bar, {@code f} with {@code bp:e} at the successor's) per
 * distinct (predecessor, successor) pair of the replayed dependency edges whose two tasks both have a core bar.
 * Edges come in resolution order, so all edges into one successor are consecutive and pairs are told apart per
 * successor. Stateless.
 */
final class DependencyArrows {
    private DependencyArrows() {
    }

    /** @return arrows drawn */
    static long draw(ChromeTraceWriter w, List<Edge> edges, SwimlaneBars bars) {
        Set<Long> preds = new HashSet<>();
        long succOfPreds = 0;
        long id = 0;
        for (Edge e : edges) {
            if (preds.isEmpty() || e.succ() != succOfPreds) {
                preds.clear();
                succOfPreds = e.succ();
            }
            if (!preds.add(e.pred())) {
                continue;
            }
            SwimlaneBars.Bar pred = bars.coreBar(e.pred());
            SwimlaneBars.Bar succ = bars.coreBar(e.succ());
            if (pred == null || succ == null || pred.startNs() > succ.startNs()) {
                continue;
            }
            id++;
            w.flowStart(TraceLayout.CORES, pred.tid(), "dependency", "flow", id, pred.startNs());
            w.flowEnd(TraceLayout.CORES, succ.tid(), "dependency", "flow", id, succ.startNs());
        }
        return id;
    }
}
