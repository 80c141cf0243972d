package dev.dfx.export;

import dev.dfx.pipeline.DepthSample;
import dev.dfx.rundir.RunManifest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws each lane's free-queue depth series of run.json ({@link RunManifest.Lane#freeDepthSamples()}) as a counter
 * track {@code free-queue depth (SUBSYSTEM KIND lane N)} on the process of the thread that writes the lane, with two
 * values, {@code min} and {@code max} (buffers): at an interval's start the extremes the host saw in it, and, when
 * changes were folded into it, at its end the depth from then on (min = max). So a step is exact where the series is,
 * and an interval that folded fast changes shows their whole range instead of one of them. Points outside the run's
 * time range (the host keeps sampling through stop's final pass, after the workload ended) are left out, not counted
 * as damage; so are lanes that wrote no record. The metadata's {@code free_queue_depth_points} counts the points drawn. Stateless.
 */
final class QueueDepthCounters {
    private QueueDepthCounters() {
    }

    static void draw(TraceSink w, StallRows layout, RunManifest m, Map<String, Object> meta) {
        long origin = m.clock().originNs();
        long end = m.timeRangeEndNs();
        long points = 0;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                List<DepthSample> series = l.freeDepthSamples();
                if (series.isEmpty() || l.total() == 0) {
                    continue;  // a lane no thread wrote: its queue stayed full, a flat track per unused slot
                }
                int pid = layout.pid(s, l);
                String name = name(s, l);
                for (DepthSample d : series) {
                    points += point(w, pid, name, d.startNs(), d.minDepth(), d.maxDepth(), origin, end);
                    if (d.endNs() > d.startNs()) {
                        points += point(w, pid, name, d.endNs(), d.lastDepth(), d.lastDepth(), origin, end);
                    }
                }
            }
        }
        meta.put("free_queue_depth_points", points);
    }

    /** @return the counter track's name of a lane */
    static String name(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        return "free-queue depth (" + s.name() + " " + l.kind() + " lane " + l.lane() + ")";
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
