package dev.dfx.export;

import dev.dfx.pipeline.DepthSample;
import dev.dfx.rundir.RunManifest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws the pipeline's queue-depth series of run.json as counter tracks, each on the process of the thread that
 * writes the queue: each lane's free-queue depth ({@link RunManifest.Lane#freeDepthSamples()}) as
 * {@code free-queue depth (SUBSYSTEM KIND lane N)}, and each ready queue's backlog
 * ({@link RunManifest.Queue#readyDepthSamples()}) as {@code ready-queue depth (SUBSYSTEM ROLE INSTANCE)}. A track has
 * two values, {@code min} and {@code max} (buffers): at an interval's start the extremes the host saw in it, and, when
 * changes were folded into it, at its end the depth from then on (min = max). So a step is exact where the series is,
 * and an interval that folded fast changes shows their whole range instead of one of them. Points outside the run's
 * time range (the host keeps sampling through stop's final pass, after the workload ended) are left out, not counted
 * as damage; so are lanes that wrote no record and ready queues no buffer was published to. The metadata's
 * {@code free_queue_depth_points} and {@code ready_queue_depth_points} count the points drawn. Stateless.
 */
final class QueueDepthCounters {
    private QueueDepthCounters() {
    }

    static void draw(TraceSink w, StallRows layout, RunManifest m, Map<String, Object> meta) {
        long origin = m.clock().originNs();
        long end = m.timeRangeEndNs();
        long free = 0;
        long ready = 0;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                if (l.total() > 0) {  // a lane no thread wrote: its queue stayed full, a flat track per unused slot
                    free += series(w, layout.pid(s, l), name(s, l), l.freeDepthSamples(), origin, end);
                }
            }
            for (RunManifest.Queue q : s.queues()) {
                if (q.maxReadyDepth() > 0) {  // a queue nothing was published to: empty all along
                    ready += series(w, layout.pid(s, q), name(s, q), q.readyDepthSamples(), origin, end);
                }
            }
        }
        meta.put("free_queue_depth_points", free);
        meta.put("ready_queue_depth_points", ready);
    }

    /** @return the counter track's name of a lane's free queue */
    static String name(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        return "free-queue depth (" + s.name() + " " + l.kind() + " lane " + l.lane() + ")";
    }

    /** @return the counter track's name of a ready queue */
    static String name(RunManifest.SubsystemReport s, RunManifest.Queue q) {
        return "ready-queue depth (" + s.name() + " " + q.role() + " " + q.instance() + ")";
    }

    /** @return points drawn */
    private static long series(TraceSink w, int pid, String name, List<DepthSample> series, long origin, long end) {
        long points = 0;
        for (DepthSample d : series) {
            points += point(w, pid, name, d.startNs(), d.minDepth(), d.maxDepth(), origin, end);
            if (d.endNs() > d.startNs()) {
                points += point(w, pid, name, d.endNs(), d.lastDepth(), d.lastDepth(), origin, end);
            }
        }
        return points;
    }

    private static int point(TraceSink w, int pid, String name, long tsNs, long min, long max, long origin,
                             long end) {
        if (tsNs < origin || tsNs > end) {
            return 0;
        }
        Map<String, Long> values = new LinkedHashMap<>();
        values.put("min", min);
        values.put("max", max);
        w.counter(pid, name, tsNs, values);
        return 1;
    }
}
