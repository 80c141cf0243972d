package dev.dfx.runtime.recording;

import dev.dfx.runtime.graph.Edge;
import java.util.List;

/**
 * The run's dependency edges as the deps subsystem replayed them for deps.json, handed to the recording's later
 * exports (the trace's dependency arrows) so that they do not read and replay the deps chunk file a second time.
 * Immutable.
 *
 * @param edges  the replayed edges in resolution order, or null when there are none to draw
 * @param absent when {@code edges} is null, why, as the trace's metadata says it ({@code none: deps not recorded},
 *               {@code none: <why deps.json is not written>}); null otherwise
 */
public record DependencyEdges(List<Edge> edges, String absent) {
    /**
     * @param edges the replayed edges, not changed afterwards (held, not copied)
     * @return edges to draw
     */
    public static DependencyEdges of(List<Edge> edges) {
        return new DependencyEdges(edges, null);
    }

    /**
     * @param why why there are none, e.g. {@code deps not recorded}
     * @return no edges, with {@code none: why} as the reason
     */
    public static DependencyEdges none(String why) {
        return new DependencyEdges(null, "none: " + why);
    }
}
