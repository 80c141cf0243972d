package dev.dfx.export;

import dev.dfx.runtime.recording.RunManifest;
import dev.dfx.runtime.subsystem.ThreadRole;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Draws every stall window of run.json as a {@code STALL (collector behind)} slice (cat {@code stall}) on the stall
 * row of the thread whose lane waited, and sums them up in the trace metadata ({@code stalls}, {@code stall_ns},
 * {@code stalled_lanes}). A thread waits at one gate at a time, so its stall slices never overlap. Stateless.
 */
final class StallMarks {
    /** Name of a stall slice. */
    static final String NAME = "STALL (collector behind)";

    private StallMarks() {
    }

    static void draw(ChromeTraceWriter w, TraceLayout layout, RunManifest m, Map<String, Object> meta) {
        long stalls = 0;
        long stallNs = 0;
        StringBuilder lanes = new StringBuilder();
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                if (l.stalls().count() == 0) {
                    continue;
                }
                ThreadRole role = ThreadRole.of(l.role());
                int tid = layout.stall(role, l.instance());
                for (RunManifest.Window win : l.stalls().windows()) {
                    Map<String, Object> args = new LinkedHashMap<>();
                    args.put("subsystem", s.name());
                    args.put("kind", l.kind());
                    args.put("lane", l.lane());
                    args.put("duration_ns", win.endNs() - win.startNs());
                    w.complete(TraceLayout.pid(role), tid, NAME, "stall", win.startNs(), win.endNs() - win.startNs(),
                            args);
                }
                stalls += l.stalls().count();
                stallNs += l.stalls().totalNs();
                lanes.append(lanes.isEmpty() ? "" : "; ").append(s.name()).append(' ').append(l.kind()).append(' ')
                        .append(l.role()).append(' ').append(l.instance()).append(": ").append(l.stalls().count())
                        .append(" stalls, ").append(l.stalls().totalNs()).append(" ns");
            }
        }
        meta.put("stalls", stalls);
        meta.put("stall_ns", stallNs);
        meta.put("stalled_lanes", lanes.isEmpty() ? "none" : lanes.toString());
    }
}
