package dev.dfx.export;

import dev.dfx.pipeline.DropWindow;
import dev.dfx.rundir.RunManifest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes loss visible in a run's trace: per subsystem its total, collected and dropped records (by cause) in the
 * metadata ({@code subsystems}, {@code records_dropped}), and, on the drop row ({@link StallRows#dropRow}) of every
 * thread one of whose lanes dropped records, a {@code DROPPED n records} slice (cat {@value #CAT}) exactly where each
 * run of drops happened: the lanes' drop windows of run.json ({@link DropWindow}). The windows of a thread's lanes
 * that overlap are drawn as one slice, whose args give each lane's share, so the slices of a row are disjoint and
 * their counts add up to the thread's drops.
 *
 * <p>Records dropped at no known time (a producer in another process does not tell when it dropped; a run.json
 * written before drop windows were kept) get one {@code DROPPED n records (time not recorded)} slice spanning the
 * whole recording on that row: from the clock origin to the latest of the bars drawn before it, the workload's end
 * and the windows' ends (all known from the data, so a trace drawn by {@code dfx record} and one drawn later by
 * {@code dfx export} are the same); the row's windows nest inside it. The metadata's {@code drop_slices} counts the
 * slices drawn at their time and {@code records_dropped_untimed} the records without one. Stateless.
 */
final class DropMarks {
    /** Slice category. */
    static final String CAT = "drop";

    private DropMarks() {
    }

    /** One lane's drop window, with the lane's name in the trace. */
    private record LaneWindow(String lane, DropWindow window) {
    }

    /** The drops of one thread's lanes. */
    private static final class RowDrops {
        final List<LaneWindow> windows = new ArrayList<>();
        final Map<String, Object> untimed = new LinkedHashMap<>();
        long untimedRecords;
    }

    static void draw(TraceSink w, StallRows layout, RunManifest m, Map<String, Object> meta) {
        Map<String, Object> subsystems = new LinkedHashMap<>();
        long dropped = 0;
        Map<StallRows.Row, RowDrops> rows = new LinkedHashMap<>();
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("total", s.total());
            counts.put("collected", s.collected());
            counts.put("dropped", s.dropped());
            counts.put("dropped_by_cause", s.droppedByCause());
            subsystems.put(s.name(), counts);
            dropped += s.dropped();
            for (RunManifest.Lane l : s.lanes()) {
                if (l.dropped() == 0) {
                    continue;
                }
                RowDrops row = rows.computeIfAbsent(layout.dropRow(s, l), k -> new RowDrops());
                String name = s.name() + " " + l.kind();
                for (DropWindow win : l.dropWindows()) {
                    row.windows.add(new LaneWindow(name, win));
                }
                long untimed = l.droppedUnplaced();
                if (untimed > 0) {
                    Map<String, Object> lane = new LinkedHashMap<>();
                    lane.put("dropped", untimed);
                    lane.putAll(l.droppedByCause());
                    row.untimed.put(name, lane);
                    row.untimedRecords += untimed;
                }
            }
        }
        meta.put("subsystems", subsystems);
        meta.put("records_dropped", dropped);
        long end = recordingEnd(w, m, rows);
        long slices = 0;
        long untimed = 0;
        for (Map.Entry<StallRows.Row, RowDrops> e : rows.entrySet()) {
            StallRows.Row row = e.getKey();
            RowDrops d = e.getValue();
            if (d.untimedRecords > 0) {   // first: the row's windows nest inside it
                Map<String, Object> args = new LinkedHashMap<>(d.untimed);
                args.put("when", "not recorded: the slice spans the whole recording");
                w.complete(row.pid(), row.tid(), name(d.untimedRecords) + " (time not recorded)", CAT,
                        m.clock().originNs(), Math.max(1, end - m.clock().originNs()), args);
                untimed += d.untimedRecords;
            }
            slices += drawWindows(w, row, d.windows);
        }
        meta.put("drop_slices", slices);
        meta.put("records_dropped_untimed", untimed);
    }

    /** Draws one slice per group of overlapping windows, oldest first; returns how many. */
    private static long drawWindows(TraceSink w, StallRows.Row row, List<LaneWindow> windows) {
        List<LaneWindow> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparingLong((LaneWindow lw) -> lw.window().startNs())
                .thenComparingLong(lw -> lw.window().endNs()));
        long slices = 0;
        for (int i = 0; i < sorted.size(); ) {
            long start = sorted.get(i).window().startNs();
            long stop = sorted.get(i).window().endNs();
            long count = 0;
            long runs = 0;
            Map<String, Long> perLane = new LinkedHashMap<>();
            int j = i;
            for (; j < sorted.size() && (j == i || sorted.get(j).window().startNs() <= stop); j++) {
                DropWindow win = sorted.get(j).window();
                stop = Math.max(stop, win.endNs());
                count += win.count();
                runs++;
                perLane.merge(sorted.get(j).lane(), win.count(), Long::sum);
            }
            Map<String, Object> args = new LinkedHashMap<>(perLane);
            args.put("windows", runs);
            args.put("duration_ns", stop - start);
            w.complete(row.pid(), row.tid(), name(count), CAT, start, stop - start, args);
            slices++;
            i = j;
        }
        return slices;
    }

    /** @return a drop slice's name, {@code DROPPED n records} */
    private static String name(long records) {
        return "DROPPED " + records + (records == 1 ? " record" : " records");
    }

    /** @return the latest time known from the data: bars drawn so far, the workload's end, stall and drop windows */
    private static long recordingEnd(TraceSink w, RunManifest m, Map<StallRows.Row, RowDrops> rows) {
        long end = Math.max(w.latestNs(), m.clock().originNs() + m.workload().wallNs());
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                for (RunManifest.Window win : l.stalls().windows()) {
                    end = Math.max(end, win.endNs());
                }
            }
        }
        for (RowDrops d : rows.values()) {
            for (LaneWindow lw : d.windows) {
                end = Math.max(end, lw.window().endNs());
            }
        }
        return end;
    }
}
