package dev.dfx.export;

import dev.dfx.rundir.RunManifest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Makes loss visible in a run's trace: per subsystem its total, collected and dropped records (by cause) in the
 * metadata ({@code subsystems}, {@code records_dropped}), and on the stall row of every thread one of whose lanes
 * dropped records a {@code DROPPED n records} slice (cat {@code drop}) with each lane's count and causes. The
 * pipeline counts drops per lane but does not record when they happened, so the slice spans the whole recording:
 * from the clock origin to the latest of the bars drawn before it, the workload's end and the stall windows' ends
 * (all known from the data, so a trace drawn by {@code dfx record} and one drawn later by {@code dfx export} are
 * the same); a row of bars under it is incomplete somewhere in that span. Stall slices of the same row lie inside it
 * and nest. Stateless.
 */
final class DropMarks {
    /** Slice category. */
    static final String CAT = "drop";

    private DropMarks() {
    }

    static void draw(TraceSink w, StallRows layout, RunManifest m, Map<String, Object> meta) {
        Map<String, Object> subsystems = new LinkedHashMap<>();
        long dropped = 0;
        Map<StallRows.Row, Map<String, Object>> lanes = new LinkedHashMap<>(); // per thread: lane name -> its drops
        Map<StallRows.Row, Long> perThread = new LinkedHashMap<>();
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("total", s.total());
            counts.put("collected", s.collected());
            counts.put("dropped", s.dropped());
            counts.put("dropped_by_cause", s.droppedByCause());
            subsystems.put(s.name(), counts);
            dropped += s.dropped();
            for (RunManifest.Lane l : s.lanes()) {
                long n = l.droppedByCause().values().stream().mapToLong(Long::longValue).sum();
                if (n > 0) {
                    StallRows.Row t = layout.stallRow(s, l);
                    Map<String, Object> lane = new LinkedHashMap<>();
                    lane.put("dropped", n);
                    lane.putAll(l.droppedByCause());
                    lanes.computeIfAbsent(t, k -> new LinkedHashMap<>()).put(s.name() + " " + l.kind(), lane);
                    perThread.merge(t, n, Long::sum);
                }
            }
        }
        meta.put("subsystems", subsystems);
        meta.put("records_dropped", dropped);
        long end = Math.max(w.latestNs(), m.clock().originNs() + m.workload().wallNs());
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                for (RunManifest.Window win : l.stalls().windows()) {
                    end = Math.max(end, win.endNs());
                }
            }
        }
        long span = Math.max(1, end - m.clock().originNs());
        for (Map.Entry<StallRows.Row, Map<String, Object>> e : lanes.entrySet()) {
            StallRows.Row t = e.getKey();
            Map<String, Object> args = new LinkedHashMap<>(e.getValue());
            args.put("when", "not recorded: the slice spans the whole recording");
            w.complete(t.pid(), t.tid(), "DROPPED " + perThread.get(t) + " records", CAT, m.clock().originNs(), span,
                    args);
        }
    }
}
