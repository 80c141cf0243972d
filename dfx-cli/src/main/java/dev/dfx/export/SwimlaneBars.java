package dev.dfx.export;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws the swimlane records as bars: core task bars (cat {@code task}) per core, carrying the dependency arrows of
 * {@link DependencyFlows} on each task's first run, scheduler dispatch-to-finish bars (cat {@code dispatch}),
 * scheduler phase bars (cat {@code phase}) with the queue depth counters they sampled, and orchestrator submit bars
 * (cat {@code submit}, named after the function of the task's first run); overlapping bars of a lane go to
 * sub-lanes. The bars after the cores' need no arrows: {@link #draw} draws them as three parts of the trace
 * ({@link TraceSink#defer}, each on a thread of its own for Chrome JSON) while the arrows are planned and the cores'
 * bars drawn. Not thread-safe.
 */
final class SwimlaneBars {
    private record SchedTask(long dispatchNs, long finishNs, long taskId, int funcId, int core) {
    }

    /** Phase bar names by {@link SchedPhaseKind#ordinal()}: the kind in lower case. */
    private static final String[] PHASE_NAMES = Arrays.stream(SchedPhaseKind.values())
            .map(k -> k.name().toLowerCase(Locale.ROOT)).toArray(String[]::new);

    private final TraceSink w;
    private final TraceLayout layout;
    private final FirstRuns runs;
    private final DependencyFlows flows;
    /** The name of the bar being drawn, refilled per bar. */
    private final TaskBarName name;
    /** The queue depth counters' names by scheduler, and the values of the sample being drawn. */
    private final ByLane<String> depthNames = new ByLane<>(s -> "queue depth (sched " + s + ")");
    private final Map<String, Long> depthValues = new LinkedHashMap<>();
    /** The args of the bar being drawn, refilled per bar. */
    private final TraceArgs args = new TraceArgs();

    /** Plans the arrows of the core bars once the bars after them are under way. */
    @FunctionalInterface
    interface FlowPlan {
        /**
         * @return the arrows
         * @throws IOException when the dependency records cannot be read
         */
        DependencyFlows flows() throws IOException;
    }

    private SwimlaneBars(TraceSink w, TraceLayout layout, Map<String, String> functions, FirstRuns runs,
                         DependencyFlows flows) {
        this.w = w;
        this.layout = layout;
        this.name = new TaskBarName(functions);
        this.runs = runs;
        this.flows = flows;
    }

    /**
     * Draws every bar: the cores' bars, then the schedulers' and the orchestrator's as parts of the trace, drawn
     * while {@code plan} runs and the cores' bars are drawn.
     *
     * @param functions the run's function names by id
     * @param plan      the arrows of the cores' bars, called once on this thread
     * @throws IOException when a chunk file cannot be read or {@code plan} fails
     */
    static void draw(TraceSink w, TraceLayout layout, Map<String, String> functions, FirstRuns runs,
                     ChunkReader swimlane, FlowPlan plan) throws IOException {
        // three parts, joined in the order they would be drawn in place: each on its own rows (a part names the rows
        // it draws on), so the trace's bytes are the same as from one part; on two CPUs, whichever thread is done
        // first leaves the other CPU to the rest instead of one part's thread drawing them all at the end
        try (TraceSink.Deferred tasks = w.defer(p -> forPart(p, layout, functions, runs).drawSchedTasks(swimlane));
             TraceSink.Deferred phases = w.defer(p -> forPart(p, layout, functions, runs).drawPhases(swimlane));
             TraceSink.Deferred submits = w.defer(p -> forPart(p, layout, functions, runs).drawSubmits(swimlane))) {
            new SwimlaneBars(w, layout, functions, runs, plan.flows()).drawCores(swimlane);
            tasks.join();
            phases.join();
            submits.join();
        }
    }

    /** @return the bars drawn into a part of the trace, on rows it names itself, without arrows */
    private static SwimlaneBars forPart(TraceSink part, TraceLayout layout, Map<String, String> functions,
                                        FirstRuns runs) {
        return new SwimlaneBars(part, layout.forPart(part), functions, runs, DependencyFlows.none());
    }

    private void drawCores(ChunkReader r) throws IOException {
        CoreTaskRecord.View v = new CoreTaskRecord.View();
        ByLane<SubLanes> lanes = new ByLane<>(core -> new SubLanes());
        ChunkRecords.forEach(r, CoreTaskRecord.KIND, (core, seg, off) -> {
            v.wrap(seg, off);
            long start = v.startNs(); // each field read once: every read of the record's segment is checked
            long end = v.endNs();
            long taskId = v.taskId();
            int funcId = v.funcId();
            int tid = layout.core(core, lanes.get(core).place(start, end));
            TraceArgs args = this.args.reset().addTaskId("task_id", taskId).add("func_id", funcId)
                    .add("duration_ns", end - start);
            if ((v.flags() & CoreTaskRecord.FLAG_FAILED) != 0) {
                args.add("failed", true);
            }
            w.complete(TraceLayout.CORES, tid, name.bar(funcId, taskId), "task", start, end - start, args,
                    flows.take(taskId));
        });
    }

    private void drawSchedTasks(ChunkReader r) throws IOException {
        Map<Integer, List<SchedTask>> bySched = new HashMap<>();
        SchedTaskRecord.View v = new SchedTaskRecord.View();
        ChunkRecords.forEach(r, SchedTaskRecord.KIND, (s, seg, off) -> {
            v.wrap(seg, off);
            bySched.computeIfAbsent(s, k -> new ArrayList<>())
                    .add(new SchedTask(v.dispatchNs(), v.finishNs(), v.taskId(), v.funcId(), v.coreId()));
        });
        for (Map.Entry<Integer, List<SchedTask>> e : bySched.entrySet()) {
            List<SchedTask> tasks = e.getValue();
            tasks.sort((a, b) -> Long.compare(a.dispatchNs(), b.dispatchNs())); // records are in finish order
            SubLanes lanes = new SubLanes();
            for (SchedTask t : tasks) {
                int tid = layout.schedTasks(e.getKey(), lanes.place(t.dispatchNs(), t.finishNs()));
                args.reset().addTaskId("task_id", t.taskId()).add("core", t.core())
                        .add("dispatch_to_finish_ns", t.finishNs() - t.dispatchNs());
                w.complete(TraceLayout.SCHED, tid, name.bar(t.funcId(), t.taskId()), "dispatch", t.dispatchNs(),
                        t.finishNs() - t.dispatchNs(), args, SliceFlows.NONE);
            }
        }
    }

    private void drawPhases(ChunkReader r) throws IOException {
        SchedPhaseRecord.View v = new SchedPhaseRecord.View();
        ByLane<SubLanes> lanes = new ByLane<>(s -> new SubLanes());
        ByLane<int[]> lastDepths = new ByLane<>(s -> new int[] {-1, -1, -1});
        ChunkRecords.forEach(r, SchedPhaseRecord.KIND, (s, seg, off) -> {
            v.wrap(seg, off);
            long start = v.startNs();
            long end = v.endNs();
            int tid = layout.schedPhases(s, lanes.get(s).place(start, end));
            args.reset().add("loop_iter", v.loopIter()).add("tasks_processed", v.tasksProcessed())
                    .add("pop_hit", v.popHit()).add("pop_miss", v.popMiss());
            w.complete(TraceLayout.SCHED, tid, PHASE_NAMES[v.kind().ordinal()], "phase", start, end - start, args);
            int[] last = lastDepths.get(s);
            depths(s, start, v.depthAtStart(0), v.depthAtStart(1), v.depthAtStart(2), last);
            depths(s, end, v.depthAtEnd(0), v.depthAtEnd(1), v.depthAtEnd(2), last);
        });
    }

    /** A queue depth counter sample, written only when a depth changed. */
    private void depths(int sched, long ts, int ready, int waiting, int unresolved, int[] last) {
        if (ready == last[0] && waiting == last[1] && unresolved == last[2]) {
            return;
        }
        last[0] = ready;
        last[1] = waiting;
        last[2] = unresolved;
        depthValues.put("ready", (long) ready); // the same keys each time: the map's entries are reused
        depthValues.put("waiting", (long) waiting);
        depthValues.put("unresolved", (long) unresolved);
        w.counter(TraceLayout.SCHED, depthNames.get(sched), ts, depthValues);
    }

    private void drawSubmits(ChunkReader r) throws IOException {
        OrchPhaseRecord.View v = new OrchPhaseRecord.View();
        SubLanes lanes = new SubLanes();
        ChunkRecords.forEach(r, OrchPhaseRecord.KIND, (lane, seg, off) -> {
            v.wrap(seg, off);
            long start = v.startNs();
            long end = v.endNs();
            long taskId = v.taskId();
            int tid = layout.orchSubmits(lanes.place(start, end));
            args.reset().addTaskId("task_id", taskId).add("submit_idx", v.submitIdx())
                    .add("window_wait_ns", v.windowWaitNs());
            int ran = runs.index(taskId); // the orchestrator record has no function id; the core's has
            w.complete(TraceLayout.ORCH, tid, ran < 0 ? name.submit(taskId) : name.submit(runs.funcId(ran), taskId),
                    "submit", start, end - start, args, SliceFlows.NONE);
        });
    }
}
