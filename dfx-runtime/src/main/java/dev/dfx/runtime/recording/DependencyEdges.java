package dev.dfx.runtime.recording;

import dev.dfx.runtime.graph.Edge;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The run's dependency edges as the deps subsystem replayed them for deps.json, handed to the recording's later
 * exports (the trace's dependency arrows) so that they do not read and replay the deps chunk file a second time.
 * The replay may be left to the first caller that needs it ({@link #replayed}), so that the trace draws what needs
 * no edges while it runs.
 *
 * <p>Thread-safe: the replay runs once, on the first thread that asks (or the one {@link #replayAhead} starts); the
 * others wait for it.
 */
public final class DependencyEdges {
    private Callable<List<Edge>> replay;
    private final String failed;
    private List<Edge> edges;
    private String absent;

    private DependencyEdges(Callable<List<Edge>> replay, String failed, List<Edge> edges, String absent) {
        this.replay = replay;
        this.failed = failed;
        this.edges = edges;
        this.absent = absent;
    }

    /**
     * @param edges the replayed edges, not changed afterwards (held, not copied)
     * @return edges to draw
     */
    public static DependencyEdges of(List<Edge> edges) {
        return new DependencyEdges(null, null, edges, null);
    }

    /**
     * @param why why there are none, e.g. {@code deps not recorded}
     * @return no edges, with {@code none: why} as the reason
     */
    public static DependencyEdges none(String why) {
        return new DependencyEdges(null, null, null, "none: " + why);
    }

    /**
     * @param replay replays the edges (in resolution order, not changed afterwards), on the first call of
     *               {@link #edges()} or {@link #absent()}
     * @param failed why there are none when the replay throws, e.g. {@code deps.json not written}
     * @return the edges, replayed when first asked for
     */
    public static DependencyEdges replayed(Callable<List<Edge>> replay, String failed) {
        return new DependencyEdges(replay, failed, null, null);
    }

    /**
     * Starts the replay, if any is to run, on a thread of its own ({@code dfx-deps-replay}), so that it runs from the
     * start of the post-recording work beside the other outputs, whichever thread asks for the edges first;
     * {@link #edges()} and {@link #absent()} wait for it. A replay that fails is left to the deps export to report,
     * as when a caller runs it.
     */
    public void replayAhead() {
        synchronized (this) {
            if (replay == null) {
                return;
            }
        }
        Thread.ofPlatform().name("dfx-deps-replay").daemon().start(this::edges);
    }

    /** @return the replayed edges in resolution order, or null when there are none to draw */
    public synchronized List<Edge> edges() {
        replayOnce();
        return edges;
    }

    /**
     * @return when {@link #edges()} is null, why, as the trace's metadata says it ({@code none: deps not recorded},
     *         {@code none: <why deps.json is not written>}); null otherwise
     */
    public synchronized String absent() {
        replayOnce();
        return absent;
    }

    private void replayOnce() {
        if (replay == null) {
            return;
        }
        try {
            edges = replay.call();
        } catch (Exception e) { // a replay that fails is left to the deps export to report
            absent = "none: " + failed;
        }
        replay = null;
    }
}
