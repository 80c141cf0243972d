package dev.dfx.runtime;

import dev.dfx.record.ArgStage;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.record.ScopePhase;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.CounterSource;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.probe.RuntimeShape;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.probe.ScopeStats;
import dev.dfx.runtime.probe.TaskView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test probe that keeps every hook call, per lane, with the threads that made it. Each lane's lists are
 * touched only by its own thread and read after the run (the run's joins order them).
 */
final class RecordingProbe implements Probe {
    record CoreRun(int core, long taskId, int funcId, long startNs, long endNs, long[] deltas, boolean failed) {
    }

    record Finish(int scheduler, long taskId, int core, long dispatchNs, long finishNs) {
    }

    record Phase(int scheduler, SchedPhaseKind kind, long startNs, long endNs, int loopIter, int processed, int popHit,
                 int popMiss, int[] atStart, int[] atEnd) {
    }

    record Capture(long taskId, int argIndex, ArgStage stage, long timeNs) {
    }

    record Submit(TaskView task, long startNs, long endNs, long waitNs) {
    }

    record ScopeEvent(ScopePhase phase, ScopeStats stats) {
    }

    final boolean counters;
    /** What the orchestrator lane answers to {@link OrchestratorProbe#wantsScopeSites()}. */
    boolean scopeSites = true;
    RuntimeShape shape;
    int starts;
    final Map<Integer, CoreLane> cores = new ConcurrentHashMap<>();
    final Map<Integer, SchedLane> schedulers = new ConcurrentHashMap<>();
    OrchLane orch;

    RecordingProbe(boolean counters) {
        this.counters = counters;
    }

    @Override
    public void start(RuntimeShape s) {
        shape = s;
        starts++;
    }

    @Override
    public CoreProbe core(int core) {
        CoreLane l = new CoreLane(core);
        cores.put(core, l);
        return l;
    }

    @Override
    public SchedulerProbe scheduler(int scheduler) {
        SchedLane l = new SchedLane(scheduler);
        schedulers.put(scheduler, l);
        return l;
    }

    @Override
    public OrchestratorProbe orchestrator() {
        orch = new OrchLane();
        return orch;
    }

    /** Base of a lane: remembers the threads that called it and whether it was closed. */
    abstract static class Lane {
        final Set<Thread> threads = new HashSet<>();
        int closes;
        boolean usedAfterClose;

        void touch() {
            threads.add(Thread.currentThread());
            usedAfterClose |= closes > 0;
        }

        void closeLane() {
            touch();
            closes++;
        }
    }

    final class CoreLane extends Lane implements CoreProbe {
        final int core;
        final List<CoreRun> runs = new ArrayList<>();
        final List<Long> started = new ArrayList<>();

        CoreLane(int core) {
            this.core = core;
            touch();
        }

        @Override
        public CounterSource counterSource() {
            touch();
            return counters ? CounterSource.jvmThread() : null;
        }

        @Override
        public void taskStart(TaskView task, long startNs) {
            touch();
            started.add(task.taskId());
        }

        @Override
        public void taskEnd(TaskView task, long startNs, long endNs, long[] deltas, boolean failed) {
            touch();
            runs.add(new CoreRun(core, task.taskId(), task.funcId(), startNs, endNs,
                    deltas == null ? null : deltas.clone(), failed));
        }

        @Override
        public void close() {
            closeLane();
        }
    }

    final class SchedLane extends Lane implements SchedulerProbe {
        final int scheduler;
        final List<Finish> finishes = new ArrayList<>();
        final List<Phase> phases = new ArrayList<>();
        final List<Capture> captures = new ArrayList<>();

        SchedLane(int scheduler) {
            this.scheduler = scheduler;
            touch();
        }

        @Override
        public void taskFinished(TaskView task, int core, long dispatchNs, long finishNs) {
            touch();
            finishes.add(new Finish(scheduler, task.taskId(), core, dispatchNs, finishNs));
        }

        @Override
        public void phase(SchedPhaseKind kind, long startNs, long endNs, int loopIter, int processed, int popHit,
                          int popMiss, int[] atStart, int[] atEnd) {
            touch();
            phases.add(new Phase(scheduler, kind, startNs, endNs, loopIter, processed, popHit, popMiss,
                    atStart.clone(), atEnd.clone()));
        }

        @Override
        public void argCaptured(TaskView task, int argIndex, ArgStage stage, long timeNs) {
            touch();
            captures.add(new Capture(task.taskId(), argIndex, stage, timeNs));
        }

        @Override
        public void close() {
            closeLane();
        }
    }

    final class OrchLane extends Lane implements OrchestratorProbe {
        final List<Submit> submits = new ArrayList<>();
        final List<ScopeEvent> scopes = new ArrayList<>();

        OrchLane() {
            touch();
        }

        @Override
        public void submitted(TaskView task, long startNs, long endNs, long waitNs) {
            touch();
            submits.add(new Submit(task, startNs, endNs, waitNs));
        }

        @Override
        public boolean wantsScopeSites() {
            return scopeSites;
        }

        @Override
        public void scope(ScopePhase phase, ScopeStats stats) {
            touch();
            scopes.add(new ScopeEvent(phase, stats));
        }

        @Override
        public void close() {
            closeLane();
        }
    }

    /** @return every core run, by task id (a task that ran twice keeps its last run) */
    Map<Long, CoreRun> runsById() {
        Map<Long, CoreRun> m = new TreeMap<>();
        cores.values().forEach(l -> l.runs.forEach(r -> m.put(r.taskId(), r)));
        return m;
    }

    List<CoreRun> allRuns() {
        List<CoreRun> all = new ArrayList<>();
        cores.values().forEach(l -> all.addAll(l.runs));
        return all;
    }

    List<Finish> allFinishes() {
        List<Finish> all = new ArrayList<>();
        schedulers.values().forEach(l -> all.addAll(l.finishes));
        return all;
    }

    List<Phase> allPhases() {
        List<Phase> all = new ArrayList<>();
        schedulers.values().forEach(l -> all.addAll(l.phases));
        return all;
    }

    List<Capture> allCaptures() {
        List<Capture> all = new ArrayList<>();
        schedulers.values().forEach(l -> all.addAll(l.captures));
        return all;
    }
}
