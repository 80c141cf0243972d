package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgStage;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.record.ScopePhase;
import dev.dfx.runtime.RecordingProbe.CoreRun;
import dev.dfx.runtime.RecordingProbe.Phase;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.TaskGraph;
import dev.dfx.runtime.graph.TaskInfo;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.TaskView;
import dev.dfx.runtime.workload.Workload;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every workload (small instances) under several thread counts with a recording probe and checks
 * what the probe saw against the runtime's own graph and the rules of the hooks.
 */
@Timeout(60)
class HookInvariantsTest {

    static Stream<Arguments> runs() {
        List<Arguments> a = new ArrayList<>();
        int[][] shapes = {{1, 2}, {2, 3}, {1, 1}, {3, 2}};
        for (String w : SmallWorkloads.NAMES) {
            for (int[] s : shapes) {
                a.add(Arguments.of(w, s[0], s[1]));
            }
        }
        return a.stream();
    }

    @ParameterizedTest(name = "{0} S={1} C={2}")
    @MethodSource("runs")
    void probeSeesEveryHookTheExpectedNumberOfTimesInAValidOrder(String name, int schedulers, int cores) {
        Workload w = SmallWorkloads.named(name).get();
        RecordingProbe probe = new RecordingProbe(cores == 3);
        RuntimeConfig cfg = RuntimeConfig.defaults().withSchedulers(schedulers).withCores(cores).withWindow(64);
        RunResult r = TaskRuntime.run(cfg, probe, w);
        w.check();
        TaskGraph g = r.graph();
        assertThat(r.tasks()).isEqualTo(w.expectedTasks()).isEqualTo(g.tasks().size());

        threadsAndLanes(probe, schedulers, cores);
        everyTaskRanExactlyOnceAfterItsPredecessors(probe, g);
        submitsAndScopes(probe, g);
        captures(probe);
        schedulerTimes(probe, g);
        phases(probe, g);
        if (cores == 3) {
            assertThat(probe.allRuns()).allSatisfy(run -> {
                assertThat(run.deltas()).hasSize(2);
                assertThat(Arrays.stream(run.deltas()).min().orElseThrow()).isNotNegative();
            });
        } else {
            assertThat(probe.allRuns()).allSatisfy(run -> assertThat(run.deltas()).isNull());
        }
    }

    /** One lane per thread, one thread per lane, the requested counts, each lane closed once, last. */
    private static void threadsAndLanes(RecordingProbe probe, int schedulers, int cores) {
        assertThat(probe.starts).isEqualTo(1);
        assertThat(probe.shape.cores()).isEqualTo(cores);
        assertThat(probe.shape.schedulers()).isEqualTo(schedulers);
        assertThat(probe.cores.keySet()).hasSize(cores);
        assertThat(probe.schedulers.keySet()).hasSize(schedulers);
        List<RecordingProbe.Lane> lanes = new ArrayList<>();
        lanes.addAll(probe.cores.values());
        lanes.addAll(probe.schedulers.values());
        lanes.add(probe.orch);
        Set<Thread> seen = new HashSet<>();
        for (RecordingProbe.Lane l : lanes) {
            assertThat(l.threads).hasSize(1);
            assertThat(l.closes).isEqualTo(1);
            assertThat(l.usedAfterClose).isFalse();
            seen.addAll(l.threads);
        }
        assertThat(seen).hasSize(cores + schedulers + 1);
        probe.cores.forEach((c, l) -> assertThat(l.threads.iterator().next().getName()).isEqualTo("dfx-core-" + c));
        probe.schedulers.forEach((s, l) ->
                assertThat(l.threads.iterator().next().getName()).isEqualTo("dfx-sched-" + s));
        assertThat(probe.orch.threads.iterator().next().getName()).isEqualTo("dfx-orch");
    }

    private static void everyTaskRanExactlyOnceAfterItsPredecessors(RecordingProbe probe, TaskGraph g) {
        List<CoreRun> all = probe.allRuns();
        assertThat(all).hasSize(g.tasks().size());
        Map<Long, CoreRun> byId = probe.runsById();
        assertThat(byId.keySet()).containsExactlyInAnyOrderElementsOf(g.tasks().stream().map(TaskInfo::taskId).toList());
        Map<Long, TaskInfo> info = g.byId();
        for (CoreRun run : all) {
            assertThat(run.failed()).isFalse();
            assertThat(run.funcId()).isEqualTo(info.get(run.taskId()).funcId());
            assertThat(run.startNs()).isLessThanOrEqualTo(run.endNs());
        }
        probe.cores.values().forEach(l -> {
            assertThat(l.started).hasSameSizeAs(l.runs);
            for (int i = 1; i < l.runs.size(); i++) { // one task at a time per core
                assertThat(l.runs.get(i).startNs()).isGreaterThanOrEqualTo(l.runs.get(i - 1).endNs());
            }
        });
        for (Edge e : g.edges()) {
            assertThat(byId.get(e.pred()).endNs()).as("%s", e).isLessThanOrEqualTo(byId.get(e.succ()).startNs());
        }
    }

    private static void submitsAndScopes(RecordingProbe probe, TaskGraph g) {
        List<RecordingProbe.Submit> submits = probe.orch.submits;
        assertThat(submits).hasSize(g.tasks().size());
        for (int i = 0; i < submits.size(); i++) {
            TaskView t = submits.get(i).task();
            TaskInfo info = g.tasks().get(i);
            assertThat(t.submitIndex()).isEqualTo(i);
            assertThat(t.taskId()).isEqualTo(info.taskId());
            assertThat(t.ring()).isEqualTo(info.ring());
            assertThat(t.explicitDepCount()).isEqualTo(info.explicitDeps().size());
            assertThat(submits.get(i).startNs()).isLessThanOrEqualTo(submits.get(i).endNs());
            assertThat(submits.get(i).waitNs()).isBetween(0L, submits.get(i).endNs() - submits.get(i).startNs());
        }
        ArrayDeque<Integer> stack = new ArrayDeque<>();
        for (RecordingProbe.ScopeEvent s : probe.orch.scopes) {
            if (s.phase() == ScopePhase.BEGIN) {
                assertThat(s.stats().depth()).isEqualTo(stack.size());
                stack.push(s.stats().depth());
            } else {
                assertThat(stack.pop()).isEqualTo(s.stats().depth());
            }
            assertThat(s.stats().ring()).isEqualTo(Math.min(s.stats().depth(), RuntimeConfig.RINGS - 1));
            assertThat(s.stats().heapTail()).isLessThanOrEqualTo(s.stats().heapHead());
            assertThat(s.stats().taskWindowTail()).isLessThanOrEqualTo(s.stats().taskWindowHead());
            assertThat(s.stats().taskWindowHead() - s.stats().taskWindowTail()).isLessThanOrEqualTo(64);
        }
        assertThat(stack).isEmpty();
        RecordingProbe.ScopeEvent rootEnd = probe.orch.scopes.getLast();
        assertThat(rootEnd.stats().depth()).isZero();
        assertThat(rootEnd.stats().heapTail()).isEqualTo(rootEnd.stats().heapHead()); // everything released
        assertThat(rootEnd.stats().depPoolTail()).isEqualTo(rootEnd.stats().depPoolHead()); // all retired
    }

    /** Inputs, in-outs and scalars once before dispatch; outputs and in-outs once after completion. */
    private static void captures(RecordingProbe probe) {
        Map<String, Integer> seen = new HashMap<>();
        probe.allCaptures().forEach(c -> seen.merge(c.taskId() + "/" + c.argIndex() + "/" + c.stage(), 1, Integer::sum));
        Map<String, Integer> expected = new HashMap<>();
        for (RecordingProbe.Submit s : probe.orch.submits) {
            TaskView t = s.task();
            for (int i = 0; i < t.argCount(); i++) {
                ArgView a = t.arg(i);
                if (a.kind() == ArgKind.SCALAR || a.role().reads()) {
                    expected.put(t.taskId() + "/" + i + "/" + ArgStage.BEFORE_DISPATCH, 1);
                }
                if (a.kind() == ArgKind.TENSOR && a.role().writes()) {
                    expected.put(t.taskId() + "/" + i + "/" + ArgStage.AFTER_COMPLETION, 1);
                }
            }
        }
        assertThat(seen).isEqualTo(expected);
    }

    /**
     * One finish per task, from the scheduler that owns its core, around the core's run, at the end of a COMPLETE
     * phase of that scheduler that collected as many tasks as finish then (one clock read per phase); each dispatch
     * after every predecessor's finish, inside a DISPATCH phase of that scheduler, which dispatched as many tasks
     * as have that dispatch time (one clock read per phase).
     */
    private static void schedulerTimes(RecordingProbe probe, TaskGraph g) {
        List<RecordingProbe.Finish> fin = probe.allFinishes();
        assertThat(fin).hasSize(g.tasks().size());
        Map<Long, CoreRun> runs = probe.runsById();
        for (RecordingProbe.Finish f : fin) {
            CoreRun run = runs.get(f.taskId());
            assertThat(f.core()).isEqualTo(run.core());
            assertThat(f.scheduler()).isEqualTo(probe.shape.schedulerOf(run.core()));
            assertThat(f.dispatchNs()).isLessThanOrEqualTo(run.startNs());
            assertThat(run.endNs()).isLessThanOrEqualTo(f.finishNs());
        }
        Map<Long, RecordingProbe.Finish> finishById = new HashMap<>();
        fin.forEach(f -> finishById.put(f.taskId(), f));
        for (Edge e : g.edges()) {
            assertThat(finishById.get(e.pred()).finishNs()).as("%s", e)
                    .isLessThanOrEqualTo(finishById.get(e.succ()).dispatchNs());
        }
        probe.schedulers.values().forEach(l -> {
            for (int i = 1; i < l.finishes.size(); i++) { // primary timestamp of sched-task records
                assertThat(l.finishes.get(i).finishNs()).isGreaterThanOrEqualTo(l.finishes.get(i - 1).finishNs());
            }
            Map<Long, Integer> collected = new HashMap<>();
            for (Phase p : l.phases) {
                if (p.kind() == SchedPhaseKind.COMPLETE) {
                    collected.merge(p.endNs(), p.processed(), Integer::sum);
                }
            }
            Map<Long, Integer> finishedAt = new HashMap<>();
            l.finishes.forEach(f -> finishedAt.merge(f.finishNs(), 1, Integer::sum));
            assertThat(finishedAt).isEqualTo(collected);
            Map<Long, Integer> dispatchedAt = new HashMap<>();
            l.finishes.forEach(f -> dispatchedAt.merge(f.dispatchNs(), 1, Integer::sum));
            List<Phase> dispatches = l.phases.stream().filter(p -> p.kind() == SchedPhaseKind.DISPATCH).toList();
            assertThat(dispatchedAt.size()).isLessThanOrEqualTo(dispatches.size());
            dispatchedAt.forEach((ns, n) -> assertThat(dispatches.stream()
                    .filter(p -> p.startNs() <= ns && ns <= p.endNs()).mapToInt(Phase::processed).max().orElse(0))
                    .as("tasks dispatched at %d", ns).isGreaterThanOrEqualTo(n));
        });
    }

    /**
     * Phases of a scheduler tile its time (each, idle stretches included, starts at the clock reading that ended the
     * one before it: one read per boundary); their counts add up to the work done.
     */
    private static void phases(RecordingProbe probe, TaskGraph g) {
        long tasks = g.tasks().size();
        Map<SchedPhaseKind, Long> processed = new HashMap<>();
        long hits = 0;
        for (Phase p : probe.allPhases()) {
            processed.merge(p.kind(), (long) p.processed(), Long::sum);
            hits += p.popHit();
            assertThat(p.startNs()).isLessThanOrEqualTo(p.endNs());
            // ready and submitted depths are sizes; the waiting gauge may dip below 0 while a release
            // overtakes the resolver's count of the same task
            assertThat(Math.min(Math.min(p.atStart()[0], p.atStart()[2]), Math.min(p.atEnd()[0], p.atEnd()[2])))
                    .isNotNegative();
            if (p.kind() == SchedPhaseKind.IDLE) {
                assertThat(p.popMiss()).isPositive();
            } else {
                assertThat(p.processed()).isPositive();
            }
        }
        assertThat(processed.get(SchedPhaseKind.COMPLETE)).isEqualTo(tasks);
        assertThat(processed.get(SchedPhaseKind.RELEASE)).isEqualTo(tasks);
        assertThat(processed.get(SchedPhaseKind.DISPATCH)).isEqualTo(tasks);
        assertThat(hits).isEqualTo(tasks);
        assertThat(processed.get(SchedPhaseKind.RESOLVE)).isGreaterThanOrEqualTo(tasks); // plus tensor releases
        probe.schedulers.values().forEach(l -> {
            for (int i = 1; i < l.phases.size(); i++) {
                Phase prev = l.phases.get(i - 1);
                Phase cur = l.phases.get(i);
                assertThat(cur.startNs()).as("start of phase %d (%s) of a scheduler", i, cur.kind())
                        .isEqualTo(prev.endNs());
                assertThat(cur.atStart()).as("depths at the start of phase %d (%s)", i, cur.kind())
                        .isEqualTo(prev.atEnd());
                assertThat(cur.loopIter()).isGreaterThanOrEqualTo(prev.loopIter());
            }
        });
    }
}
