package dev.dfx.export;

import dev.dfx.rundir.RunManifest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws every stall window of run.json as a {@code STALL (collector behind)} slice (cat {@code stall}) on the stall
 * row of the thread whose lane waited, and sums them up in the trace metadata ({@code stalls}, {@code stall_ns},
 * {@code stalled_lanes}). A thread waits at one gate at a time, so its stall slices never overlap; they are drawn in
 * start order per thread (a thread's lanes are listed one after the other in run.json). Stateless.
 */
final class StallMarks {
    /** Name of a stall slice. */
    static final String NAME = "STALL (collector behind)";

    private StallMarks() {
    }

    /** One stall window and what the slice says about it. */
    private record Stall(long startNs, long endNs, Map<String, Object> args) {
    }

    static void draw(TraceSink w, StallRows layout, RunManifest m, Map<String, Object> meta) {
        long stalls = 0;
        long stallNs = 0;
        StringBuilder lanes = new StringBuilder();
        Map<StallRows.Row, List<Stall>> byThread = new LinkedHashMap<>();
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                if (l.stalls().count() == 0) {
                    continue;
                }
                List<Stall> mine = byThread.computeIfAbsent(layout.stallRow(s, l), k -> new ArrayList<>());
                for (RunManifest.Window win : l.stalls().windows()) {
                    Map<String, Object> args = new LinkedHashMap<>();
                    args.put("subsystem", s.name());
                    args.put("kind", l.kind());
                    args.put("lane", l.lane());
                    args.put("writer", layout.label(s, l));
                    args.put("duration_ns", win.endNs() - win.startNs());
                    mine.add(new Stall(win.startNs(), win.endNs(), args));
                }
                stalls += l.stalls().count();
                stallNs += l.stalls().totalNs();
                lanes.append(lanes.isEmpty() ? "" : "; ").append(layout.label(s, l)).append(": ").append(l.stalls().count())
                        .append(" stalls, ").append(l.stalls().totalNs()).append(" ns");
            }
        }
        for (Map.Entry<StallRows.Row, List<Stall>> e : byThread.entrySet()) {
            StallRows.Row row = e.getKey();
            e.getValue().sort(Comparator.comparingLong(Stall::startNs));
            for (Stall st : e.getValue()) {
                w.complete(row.pid(), row.tid(), NAME, "stall", st.startNs(), st.endNs() - st.startNs(), st.args());
            }
        }
        meta.put("stalls", stalls);
        meta.put("stall_ns", stallNs);
        meta.put("stalled_lanes", lanes.isEmpty() ? "none" : lanes.toString());
    }
}
