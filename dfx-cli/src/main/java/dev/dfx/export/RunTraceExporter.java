package dev.dfx.export;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import dev.dfx.program.LaneStrings;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.ChunkOnlyRun;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.OutputSeal;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.UnfinishedRun;
import dev.dfx.runtime.recording.DependencyEdges;
import dev.dfx.runtime.subsystem.deps.DepsJson;
import dev.dfx.runtime.subsystem.deps.DepsReplay;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a run directory's trace from its chunk files and run.json, in one walk that feeds either format
 * ({@link TraceFormat}): {@code trace.json} (Chrome trace-event JSON that Perfetto opens), so {@code dfx record} and
 * {@code dfx export RUN --format chrome} produce the same file, or a native Perfetto trace
 * ({@code --format perfetto}) with the same content:
 * <ul>
 *   <li>processes (the reference's §5 conventions): {@value TraceLayout#ORCH} Orchestrator (submit bars, level 4),
 *       {@value TraceLayout#SCHED} Schedulers (phase bars, level 3; dispatch-to-finish bars, level 2; queue depth
 *       counters), {@value TraceLayout#CORES} Cores (task bars);</li>
 *   <li>dependency arrows from the deps records, from the predecessor's bar to the successor's bar
 *       ({@link DependencyFlows}), drawn only when deps.json was written (no deps record lost in the run); of a deps
 *       file damaged since, the arrows into the submits before its first loss, with one damage line saying which
 *       are lost;</li>
 *   <li>stall windows from run.json as {@code STALL (collector behind)} slices on a dedicated row of the thread that
 *       waited, so a gap caused by the collector looks different from a real gap; a summary in the metadata;</li>
 *   <li>loss: per subsystem total / collected / dropped in the metadata, and a {@code DROPPED n records} slice on
 *       the drop row of each thread whose lanes dropped records, at each run of drops ({@link DropMarks});</li>
 *   <li>each lane's free-queue depth and each ready queue's backlog over time as counter tracks on its writer's
 *       process ({@link QueueDepthCounters}).</li>
 * </ul>
 * Times are the records' nanoseconds, written exactly (Chrome: relative to the run's clock origin); bars that overlap
 * on one lane go to sub-lanes. Stateless.
 */
public final class RunTraceExporter {
    /** File name in the run directory. */
    public static final String FILE = "trace.json";
    private static final String UNFINISHED_DEPS = "the recording did not finish: later submits are missing";
    /** What the damage line about a deps file says after the file: what the damage cost the trace. */
    private static final String ARROWS = "dependency arrows: ";

    private RunTraceExporter() {
    }

    /**
     * @param runDir the run directory
     * @param m      its manifest (final subsystem reports)
     * @param out    the trace file to write
     * @return what was written (entries = trace events), sealed ({@link OutputSeal})
     * @throws IOException when a file cannot be read or written
     * @throws dev.dfx.error.BadInputException when a chunk file is damaged
     */
    public static OutputFile write(Path runDir, RunManifest m, Path out) throws IOException {
        return write(runDir, m, out, null);
    }

    /**
     * The trace of a recording that just ended ({@code dfx record}), with the dependency edges its deps export
     * replayed, instead of replaying the deps chunk file again.
     *
     * @param deps the edges (or why there are none, for the metadata); null to replay them from the chunk file
     * @see #write(Path, RunManifest, Path)
     */
    public static OutputFile write(Path runDir, RunManifest m, Path out, DependencyEdges deps) throws IOException {
        RunDamage damage = new RunDamage();
        OutputSeal.Written<Long> events;
        // edges handed over: the deps file was read, checked and replayed by the deps export
        Set<String> elsewhere = deps != null ? Set.of(Subsystem.DEPS.id()) : Set.of();
        try (RunChunkFiles chunks = RunChunkFiles.open(runDir, m, damage, elsewhere)) {
            events = OutputSeal.write(out, os -> {
                try (os) {
                    return write(chunks, m, format(os, m, TraceFormat.CHROME), damage, deps);
                }
            });
        }
        if (damage.none()) {
            return events.seal(OutputFile.written(FILE, events.value()));
        }
        return events.seal(new OutputFile(FILE, true, events.value(), "drawn from what was readable; "
                + damage.lines().size() + " damaged or missing inputs, the first: " + damage.lines().getFirst()));
    }

    /**
     * @param chunks the run's chunk files (a damaged one holds only its intact chunks)
     * @param m      its manifest (final subsystem reports)
     * @param os     where the trace goes; closed when the trace is complete
     * @param format the trace's file format
     * @param damage receives one line when events outside the run's time range (before its clock origin, after its
     *               end: a hand-edited run.json, records not the run's own) were left out of the trace
     * @return events written (JSON trace events, Perfetto packets)
     * @throws IOException when the trace cannot be written
     */
    public static long write(RunChunkFiles chunks, RunManifest m, OutputStream os, TraceFormat format,
                             RunDamage damage) throws IOException {
        try (os) {
            return write(chunks, m, format(os, m, format), damage);
        }
    }

    private static TraceSink format(OutputStream os, RunManifest m, TraceFormat format) {
        return format.open(os, TraceClock.nanoTime(m.clock().originNs(), m.clock().epochNsAtOrigin()));
    }

    /**
     * The same walk into any sink (the HTML viewer's model, {@code dev.dfx.export.html}).
     *
     * @param sink   receives the trace, on the run's clock ({@link TraceClock#nanoTime}); finished at the end
     * @return events drawn
     * @see #write(RunChunkFiles, RunManifest, OutputStream, TraceFormat, RunDamage)
     */
    public static long write(RunChunkFiles chunks, RunManifest m, TraceSink sink, RunDamage damage)
            throws IOException {
        return write(chunks, m, sink, damage, null);
    }

    private static long write(RunChunkFiles chunks, RunManifest m, TraceSink sink, RunDamage damage,
                              DependencyEdges deps) throws IOException {
        Map<String, Object> meta = new LinkedHashMap<>();
        TraceWindow w = new TraceWindow(sink, m.clock().originNs(), m.timeRangeEndNs());
        boolean unfinished = UnfinishedRun.is(m);
        boolean standIn = ChunkOnlyRun.is(m);
        StallRows layout = m.program() != null ? drawProgram(chunks, m, w, meta, damage)
                : drawRuntime(chunks, m, w, meta, unfinished, standIn, deps, damage);
        if (unfinished || standIn) {
            // the manifest written at the start has no counts, a stand-in none at all: claiming zero loss or no
            // stalls would be false
            for (String key : List.of("subsystems", "records_dropped", "stalls", "stall_ns", "stalled_lanes")) {
                meta.put(key, standIn ? ChunkOnlyRun.UNKNOWN : UnfinishedRun.UNKNOWN);
            }
        } else {
            DropMarks.draw(w, layout, m, meta);
            StallMarks.draw(w, layout, m, meta);
            QueueDepthCounters.draw(w, layout, m, meta);
        }
        meta.put("dfx_format", RunManifest.FORMAT);
        if (m.program() != null) {
            meta.put("command", String.join(" ", m.program().command()));
            meta.put("exit_status", m.program().exitStatus());
        } else {
            meta.put("workload", m.config().workload());
        }
        meta.put("status", m.status());
        meta.put("clock", m.clock().source());
        meta.put("clock_freq_hz", m.clock().clockFreqHz());
        meta.put("origin_ns", m.clock().originNs());
        meta.put("start", m.start());
        if (w.skipped() > 0) {
            meta.put("events_outside_the_run", w.skipped());
            damage.add(ManifestFile.of(chunks.runDir()) + ": " + w.skipped() + " trace events lie outside the run's"
                    + " time range " + m.clock().originNs() + ".." + (m.timeRangeEndNs() == Long.MAX_VALUE ? ""
                    : m.timeRangeEndNs()) + " ns (clock.origin_ns + wall_ns); left out of the trace");
        }
        w.finish(meta);
        return w.eventCount();
    }

    /** Draws the embedded runtime's swimlanes and dependency arrows; returns where each thread's stall row is. */
    private static StallRows drawRuntime(RunChunkFiles chunks, RunManifest m, TraceSink w, Map<String, Object> meta,
                                         boolean unfinished, boolean standIn, DependencyEdges deps, RunDamage damage)
            throws IOException {
        ChunkReader swimlane = chunks.reader(Subsystem.SWIMLANE);
        TraceLayout layout = new TraceLayout(w);
        FirstRuns runs = FirstRuns.read(swimlane);
        Arrows[] arrows = new Arrows[1];
        // planned (the deps replay, when the recording did not hand it over done) while the bars after the cores'
        // are drawn
        SwimlaneBars.FlowPlan plan = () -> {
            arrows[0] = arrows(chunks, m, unfinished, standIn, deps, runs, damage);
            return arrows[0].flows();
        };
        if (swimlane != null) {
            SwimlaneBars.draw(w, layout, m.functions(), runs, swimlane, plan);
        } else {
            plan.flows();
        }
        String noArrows = arrows[0].absent();
        List<String> notes = new ArrayList<>(2);
        if (arrows[0].partial() != null) {
            notes.add(arrows[0].partial());
        }
        if (unfinished) {
            notes.add(UNFINISHED_DEPS);
        }
        meta.put("dependency_arrows", noArrows != null ? noArrows : arrows[0].flows().count() + " arrows from deps"
                + (unfinished ? " on disk" : "") + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
        return layout;
    }

    /**
     * The dependency arrows to draw, or why there are none ({@code absent}, with no arrows); {@code partial} says which
     * submits they cover when the deps file is damaged (null: all it holds).
     */
    private record Arrows(DependencyFlows flows, String absent, String partial) {
        static Arrows none(String why) {
            return new Arrows(DependencyFlows.none(), why, null);
        }
    }

    private static Arrows arrows(RunChunkFiles chunks, RunManifest m, boolean unfinished, boolean standIn,
                                 DependencyEdges deps, FirstRuns runs, RunDamage damage) throws IOException {
        if (deps != null) {
            return deps.edges() != null ? new Arrows(DependencyFlows.of(deps.edges(), runs), null, null)
                    : Arrows.none(deps.absent());
        }
        String noArrows = standIn ? ChunkOnlyRun.NO_ARROWS : unfinished ? unfinishedNoArrows(m) : noArrows(m);
        if (noArrows != null) {
            return Arrows.none(noArrows);
        }
        ChunkReader reader = chunks.reader(Subsystem.DEPS);
        Path file = ChunkStore.file(chunks.runDir(), Subsystem.DEPS.id());
        String name = ChunkStore.FOLDER + "/" + Subsystem.DEPS.id() + ChunkStore.EXTENSION;
        String unfinishedNote = unfinished ? " (" + UNFINISHED_DEPS + ")" : "";
        long submits = unfinished ? -1 : submits(m);
        String allLost = submits >= 0 ? "; the arrows of all " + Count.of(submits, "submit") + " are lost" : "";
        if (reader == null) {
            if (chunks.damaged(Subsystem.DEPS)) { // an unfinished run's file that was never written is no damage
                damage.add(file + ": " + ARROWS + "none drawn (no submit record could be read" + allLost + ")");
            }
            return Arrows.none("none: " + name + " is missing or unreadable" + unfinishedNote);
        }
        DepsReplay.Unbroken replayed;
        try {
            replayed = DepsReplay.replayUnbroken(reader);
        } catch (BadInputException e) {
            if (!unfinished) {
                throw e;
            }
            return Arrows.none("none: " + e.getMessage() + unfinishedNote); // a chain cut by the end
        }
        DependencyFlows flows = DependencyFlows.of(replayed.edges(), runs);
        if (!chunks.damaged(Subsystem.DEPS)) {
            return new Arrows(flows, null, null);
        }
        long read = replayed.submits();
        if (read == 0) {
            damage.add(file + ": " + ARROWS + "none drawn (no whole chunk of submit records before the damage"
                    + allLost + ")");
            return Arrows.none("none: " + name + " is damaged before its first whole chunk of submits"
                    + unfinishedNote);
        }
        if (submits >= 0 && read >= submits) { // the damage spared every submit (a torn index, say)
            damage.add(file + ": " + ARROWS + "none lost (every one of the " + submits + " submits was read; "
                    + flows.count() + " drawn)");
            return new Arrows(flows, null, null);
        }
        String first = "into the first " + read + (submits >= 0 ? " of the " + submits : "") + " submits";
        damage.add(file + ": " + ARROWS + flows.count() + " drawn, " + first + " (the whole chunks before byte offset "
                + replayed.end() + "); the arrows into the " + (submits >= 0 ? (submits - read) + " " : "")
                + "later submits are lost");
        return new Arrows(flows, null, first + ": " + name + " lost the submits from byte offset " + replayed.end()
                + " on");
    }

    /** @return the submits the run recorded: the tasks of its deps.json (written, see {@link #noArrows}) */
    private static long submits(RunManifest m) {
        return m.outputs().stream().filter(o -> o.path().equals(DepsJson.FILE)).findFirst().orElseThrow().entries();
    }

    /**
     * Draws a program run's user events per process and thread ({@link UserEventTrace}), named through the strings
     * file; a strings file that is missing or damaged is one damage line, and the events are drawn with their ids.
     */
    private static StallRows drawProgram(RunChunkFiles chunks, RunManifest m, TraceSink w, Map<String, Object> meta,
                                         RunDamage damage) throws IOException {
        LaneStrings strings = LaneStrings.ofRun(chunks.runDir(), m, damage);
        ChunkReader user = chunks.readers().stream()
                .filter(r -> r.subsystem().equals(ProgramReport.SUBSYSTEM)).findFirst().orElse(null);
        UserEventTrace trace = new UserEventTrace(w, UnfinishedRun.program(chunks.runDir(), m), strings);
        trace.draw(user, meta);
        return trace;
    }

    /**
     * A run that did not finish ({@link UnfinishedRun}) has no final counts and no deps.json; each deps lane on disk is
     * a prefix of its submits (the buffers not yet drained are missing), and every edge a submit names points to an
     * earlier submit, so the edges among the records on disk are real: they are drawn from whatever deps chunks are
     * readable (an overflow chain cut by the end stops them, see {@link #write}).
     *
     * @return why no dependency arrows are drawn, or null when they are
     */
    private static String unfinishedNoArrows(RunManifest m) {
        return m.config().subsystems().contains(Subsystem.DEPS.id()) ? null : "none: deps not recorded";
    }

    /**
     * @return why no dependency arrows are drawn, or null when they are: no deps record may be lost in the run (a
     *         replay across a lost submit would draw wrong edges; a file damaged since the recording is replayed up to
     *         its first loss, see {@link DepsReplay#replayUnbroken})
     */
    private static String noArrows(RunManifest m) {
        if (m.subsystem(Subsystem.DEPS.id()) == null) {
            return "none: deps not recorded";
        }
        OutputFile depsJson = m.outputs().stream().filter(o -> o.path().equals(DepsJson.FILE)).findFirst().orElse(null);
        if (depsJson == null || !depsJson.written()) {
            return "none: " + (depsJson == null ? "deps.json not written" : depsJson.note());
        }
        return null;
    }
}
