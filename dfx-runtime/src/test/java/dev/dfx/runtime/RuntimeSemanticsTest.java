package dev.dfx.runtime;

import static dev.dfx.runtime.graph.Hazard.RAW;
import static dev.dfx.runtime.graph.Hazard.WAR;
import static dev.dfx.runtime.graph.Hazard.WAW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgPayload;
import dev.dfx.record.ArgStage;
import dev.dfx.record.ScopePhase;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.TaskGraph;
import dev.dfx.runtime.probe.ArgCapture;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.probe.ScopeStats;
import dev.dfx.runtime.probe.TaskView;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(30)
class RuntimeSemanticsTest {
    private static final Kernel NOOP = a -> { };

    private static TaskGraph graph(Program p) {
        return TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, p).graph();
    }

    @Test
    void tensorMapOrdersOverlappingTilesExactlyAndSkipsImpliedEdges() {
        List<Integer> ids = new ArrayList<>();
        TaskGraph g = graph(o -> {
            Function f = o.function("f", NOOP);
            Tensor m = o.tensor("m", 4, 4);
            ids.add(m.id());
            o.submit(f, Args.of().out(m.tile(0, 0, 2, 2)));  // 0
            o.submit(f, Args.of().out(m.tile(0, 2, 2, 2)));  // 1: same rows, other columns: no edge
            o.submit(f, Args.of().in(m.rows(0, 2)));         // 2: reads both tiles
            o.submit(f, Args.of().out(m.tile(0, 0, 2, 2)));  // 3: after the reader only (0 -> 2 -> 3)
            o.submit(f, Args.of().in(m.tile(2, 0, 2, 2)));   // 4: never written: no edge
            o.submit(f, Args.of().inout(m.all()));           // 5
        });
        int m = ids.get(0);
        assertThat(g.edges()).containsExactly(
                Edge.tensor(0, 2, m, 0, RAW), Edge.tensor(1, 2, m, 0, RAW),
                Edge.tensor(2, 3, m, 0, WAR),
                // entries are visited by first element: tile (0,0) of task 3, rows 0..1 read by 2, then rows 2..3
                Edge.tensor(3, 5, m, 0, RAW), Edge.tensor(2, 5, m, 0, WAR), Edge.tensor(4, 5, m, 0, WAR));
    }

    @Test
    void overwritingWithoutAReaderIsWawAndATaskNeverDependsOnItself() {
        List<Integer> ids = new ArrayList<>();
        TaskGraph g = graph(o -> {
            Function f = o.function("f", NOOP);
            Tensor v = o.tensor("v", 16);
            ids.add(v.id());
            o.submit(f, Args.of().out(v.rows(0, 8)));                      // 0
            o.submit(f, Args.of().out(v.rows(4, 8)));                      // 1: WAW on 0 (overlap 4..7)
            o.submit(f, Args.of().in(v.rows(10, 4)).out(v.rows(10, 4)));   // 2: reads, then overwrites, 10..13
            o.submit(f, Args.of().in(v.rows(0, 2)));                       // 3: only 0 wrote 0..1
        });
        int v = ids.get(0);
        // task 2's write follows its own read, not itself: its edges come from task 1 only
        assertThat(g.edges()).containsExactly(Edge.tensor(0, 1, v, 0, WAW), Edge.tensor(1, 2, v, 0, RAW),
                Edge.tensor(1, 2, v, 1, WAW), Edge.tensor(0, 3, v, 0, RAW));
    }

    @Test
    void explicitDepsReachAcrossRingsAndToRetiredTasks() {
        AtomicBoolean firstDone = new AtomicBoolean();
        AtomicReference<Boolean> seenBySecond = new AtomicReference<>();
        long[] ids = new long[3];
        TaskGraph g = graph(o -> {
            Function first = o.function("first", a -> firstDone.set(true));
            Function second = o.function("second", a -> seenBySecond.set(firstDone.get()));
            ids[0] = o.submit(first, Args.of());
            try (Scope s = o.scope(ScopeMode.MANUAL)) { // its exit waits: task 0 has retired afterwards
                ids[1] = o.submit(second, Args.of().after(ids[0]));
            }
            try (Scope a = o.scope(); Scope b = o.scope()) {
                ids[2] = o.submit(second, Args.of().after(ids[0], ids[1], ids[1]));
            }
        });
        assertThat(ids).containsExactly(0L, 1L << 32, (2L << 32));
        assertThat(seenBySecond.get()).isTrue();
        assertThat(g.edges()).containsExactly(Edge.explicit(0, 1L << 32), Edge.explicit(0, 2L << 32),
                Edge.explicit(1L << 32, 2L << 32));
    }

    @Test
    void manualScopeExitWaitsForItsTasks() {
        int n = 50;
        AtomicReferenceArray<Boolean> done = new AtomicReferenceArray<>(n);
        List<Integer> missing = new ArrayList<>();
        TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, o -> {
            Function f = o.function("f", a -> {
                sleepMillis(1);
                done.set((int) a.scalarLong(0), true);
            });
            try (Scope s = o.scope(ScopeMode.MANUAL)) {
                for (int i = 0; i < n; i++) {
                    o.submit(f, Args.of().scalar((long) i));
                }
            }
            for (int i = 0; i < n; i++) {
                if (done.get(i) == null) {
                    missing.add(i);
                }
            }
        });
        assertThat(missing).isEmpty();
    }

    @Test
    void aFullTaskWindowMakesTheOrchestratorWaitForRetirement() {
        int window = 4;
        RecordingProbe probe = new RecordingProbe(false);
        TaskRuntime.run(RuntimeConfig.defaults().withWindow(window), probe, o -> {
            Function f = o.function("slow", a -> sleepMillis(2));
            for (int i = 0; i < 40; i++) {
                o.submit(f, Args.of());
            }
        });
        List<RecordingProbe.Submit> submits = probe.orch.submits;
        var runs = probe.runsById();
        assertThat(submits.stream().filter(s -> s.waitNs() > 0).count()).isGreaterThanOrEqualTo(10);
        for (int local = window; local < submits.size(); local++) {
            // task local - window had to retire (so to end) before task local could be submitted
            assertThat(runs.get((long) local - window).endNs()).isLessThanOrEqualTo(submits.get(local).endNs());
        }
    }

    @Test
    void scopeSitesAreLookedUpOnlyWhenAProbeWantsThem() {
        RecordingProbe probe = new RecordingProbe(false);
        probe.scopeSites = false;  // e.g. swimlane without the scopes subsystem: no stack walk per scope
        TaskRuntime.run(RuntimeConfig.defaults(), probe, o -> {
            try (Scope a = o.scope()) {
                o.submit(o.function("f", NOOP), Args.of());
            }
        });
        List<RecordingProbe.ScopeEvent> ev = probe.orch.scopes;
        assertThat(ev).hasSize(4);
        assertThat(ev.get(1).stats().siteFile()).isEqualTo("?");
        assertThat(ev.get(1).stats().siteLine()).isEqualTo(-1);
        assertThat(ev.get(1).stats().depth()).isEqualTo(1);
    }

    @Test
    void scopesReportHeapRingsSitesAndTensorMapUse() {
        RecordingProbe probe = new RecordingProbe(false);
        TaskRuntime.run(RuntimeConfig.defaults(), probe, o -> {
            Function f = o.function("f", NOOP);
            try (Scope a = o.scope()) {
                Tensor t = o.tensor("t", 16);
                o.submit(f, Args.of().out(t.all()));
                try (Scope b = o.scope(); Scope c = o.scope(); Scope d = o.scope(ScopeMode.MANUAL)) {
                    assertThat(o.depth()).isEqualTo(4);
                    o.submit(f, Args.of());
                }
            }
        });
        List<RecordingProbe.ScopeEvent> ev = probe.orch.scopes;
        assertThat(ev).extracting(RecordingProbe.ScopeEvent::phase).containsExactly(ScopePhase.BEGIN, ScopePhase.BEGIN,
                ScopePhase.BEGIN, ScopePhase.BEGIN, ScopePhase.BEGIN, ScopePhase.END, ScopePhase.END, ScopePhase.END,
                ScopePhase.END, ScopePhase.END);
        assertThat(ev).extracting(e -> e.stats().depth()).containsExactly(0, 1, 2, 3, 4, 4, 3, 2, 1, 0);
        assertThat(ev).extracting(e -> e.stats().ring()).containsExactly(0, 1, 2, 3, 3, 3, 3, 2, 1, 0);
        ScopeStats root = ev.get(0).stats();
        ScopeStats aBegin = ev.get(1).stats();
        assertThat(aBegin.siteFile()).isEqualTo("RuntimeSemanticsTest.java");
        assertThat(aBegin.siteLine()).isPositive();
        // the root scope's site: the program's first call (o.function, the line before scope a opens)
        assertThat(root.siteFile()).isEqualTo("RuntimeSemanticsTest.java");
        assertThat(root.siteLine()).isEqualTo(aBegin.siteLine() - 1);
        assertThat(root.timeNs()).isLessThan(aBegin.timeNs());
        assertThat(ev.get(9).stats().siteLine()).as("the root's exit, same site").isEqualTo(root.siteLine());
        assertThat(aBegin.heapHead()).isZero();
        assertThat(ev.get(2).stats().heapHead()).isEqualTo(64); // 16 floats allocated inside a, before b
        ScopeStats dEnd = ev.get(5).stats();
        assertThat(dEnd.manual()).isTrue();
        assertThat(dEnd.taskWindowHead()).isEqualTo(1); // ring 3 got one task, retired at the manual exit
        assertThat(dEnd.taskWindowTail()).isEqualTo(1);
        ScopeStats aEnd = ev.get(8).stats();
        assertThat(aEnd.heapTail()).isEqualTo(64);
        assertThat(aEnd.taskWindowHead()).isEqualTo(1); // ring 1
        assertThat(ev.get(9).stats().tensorMapUsed()).isBetween(0, 1);
        assertThat(ev.get(9).stats().timeNs()).isGreaterThanOrEqualTo(aEnd.timeNs());
    }

    @Test
    void capturedArgumentsHoldTheBytesBeforeAndAfterTheKernel() {
        // a recorder's capture: gather the region's payload at the hook, as the args subsystem will
        Map<String, float[]> seen = new ConcurrentHashMap<>();
        Probe capturing = new Probe() {
            @Override
            public SchedulerProbe scheduler(int s) {
                return new SchedulerProbe() {
                    @Override
                    public void argCaptured(TaskView task, int argIndex, ArgStage stage, long timeNs) {
                        ArgView a = task.arg(argIndex);
                        if (a.kind() == ArgKind.SCALAR) {
                            seen.put(stage + "/scalar", new float[] {Float.intBitsToFloat((int) a.scalarBits())});
                            return;
                        }
                        MemorySegment buf = MemorySegment.ofArray(new byte[(int) a.numel() * 4]);
                        ArgPayload.gather(a.data(), a.startOffset(), a.ndims(), a.shape(), a.strides(), buf, 0,
                                buf.byteSize());
                        seen.put(stage + "/" + a.role(), buf.toArray(ValueLayout.JAVA_FLOAT_UNALIGNED
                                .withOrder(ByteOrder.LITTLE_ENDIAN)));
                    }
                };
            }
        };
        TaskRuntime.run(RuntimeConfig.defaults(), capturing, o -> {
            Function scale = o.function("scale", a -> {
                for (int r = 0; r < 2; r++) {
                    for (int c = 0; c < 2; c++) {
                        a.data(0)[a.offset(0) + r * a.stride(0, 0) + c] *= a.scalarFloat(1);
                    }
                }
            });
            Tensor m = o.wrap("m", new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3);
            o.submit(scale, Args.of().inout(m.tile(1, 1, 2, 2)).scalar(10f));
        });
        assertThat(seen.keySet()).containsExactlyInAnyOrder("BEFORE_DISPATCH/INOUT", "BEFORE_DISPATCH/scalar",
                "AFTER_COMPLETION/INOUT");
        assertThat(seen.get("BEFORE_DISPATCH/INOUT")).containsExactly(5, 6, 8, 9);
        assertThat(seen.get("BEFORE_DISPATCH/scalar")).containsExactly(10);
        assertThat(seen.get("AFTER_COMPLETION/INOUT")).containsExactly(50, 60, 80, 90);
    }

    /**
     * A probe gets {@code argCaptured} exactly for the arguments its {@link ArgCapture} names: two tasks, one with its
     * output marked; each has an input, a scalar and an output (3 captures: 2 before dispatch, 1 after completion).
     */
    @ParameterizedTest
    @EnumSource(ArgCapture.class)
    void aProbeSeesOnlyTheArgumentsItsCaptureNames(ArgCapture capture) {
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        Probe capturing = new Probe() {
            @Override
            public SchedulerProbe scheduler(int s) {
                return new SchedulerProbe() {
                    @Override
                    public ArgCapture argCapture() {
                        return capture;
                    }

                    @Override
                    public void argCaptured(TaskView task, int argIndex, ArgStage stage, long timeNs) {
                        seen.add(task.submitIndex() + "/" + argIndex + "/" + stage);
                    }
                };
            }
        };
        TaskRuntime.run(RuntimeConfig.defaults(), capturing, o -> {
            Function copy = o.function("copy", NOOP);
            Tensor x = o.tensor("x", 4);
            Tensor y = o.tensor("y", 4);
            Tensor z = o.tensor("z", 4);
            o.submit(copy, Args.of().in(x.all()).scalar(2f).out(y.all()));
            o.submit(copy, Args.of().in(x.all()).scalar(3f).out(z.all()).mark());
        });
        List<String> all = List.of("0/0/BEFORE_DISPATCH", "0/1/BEFORE_DISPATCH", "0/2/AFTER_COMPLETION",
                "1/0/BEFORE_DISPATCH", "1/1/BEFORE_DISPATCH", "1/2/AFTER_COMPLETION");
        List<String> expected = switch (capture) {
            case NONE -> List.of();
            case MARKED -> List.of("1/2/AFTER_COMPLETION");
            case ALL -> all;
        };
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void unionOfCapturesIsTheWiderOne() {
        assertThat(ArgCapture.NONE.union(ArgCapture.MARKED)).isEqualTo(ArgCapture.MARKED);
        assertThat(ArgCapture.ALL.union(ArgCapture.MARKED)).isEqualTo(ArgCapture.ALL);
        assertThat(ArgCapture.MARKED.union(ArgCapture.NONE)).isEqualTo(ArgCapture.MARKED);
        assertThat(ArgCapture.NONE.union(ArgCapture.NONE)).isEqualTo(ArgCapture.NONE);
    }

    @Test
    void aFailingKernelFailsTheRunAfterEveryTaskRan() {
        AtomicBoolean successorRan = new AtomicBoolean();
        assertThatThrownBy(() -> TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, o -> {
            Function ok = o.function("ok", NOOP);
            Function boom = o.function("boom", a -> {
                throw new IllegalStateException("bad tile");
            });
            Function after = o.function("after", a -> successorRan.set(true));
            Tensor t = o.tensor("t", 4);
            o.submit(ok, Args.of().out(t.all()));
            o.submit(boom, Args.of().inout(t.all()));
            o.submit(after, Args.of().in(t.all()));
        })).isInstanceOf(TaskFailedException.class)
                .hasMessageMatching("task 0x0000000000000001 \\(boom\\) failed on core [01]: "
                        + "java.lang.IllegalStateException: bad tile")
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(successorRan).isTrue();
    }

    @Test
    void programErrorsFailTheRunWithTheirMessage() {
        assertThatThrownBy(() -> graph(o -> {
            Function f = o.function("f", NOOP);
            Tensor t;
            try (Scope s = o.scope()) {
                t = o.tensor("t", 4);
            }
            o.submit(f, Args.of().in(t.all()));
        })).isInstanceOf(TaskFailedException.class).hasMessage("program failed: java.lang.IllegalArgumentException: "
                + "argument 0 of f names tensor t#1[4], released when its scope closed");
        assertThatThrownBy(() -> graph(o -> o.submit(o.function("f", NOOP), Args.of().after(7))))
                .hasMessageEndingWith("explicit dependency 0x7 of f is not a submitted task");
        assertThatThrownBy(() -> graph(o -> {
            o.function("f", NOOP);
            o.function("f", NOOP);
        })).hasMessageEndingWith("function f is already registered");
        assertThatThrownBy(() -> graph(o -> {
            Scope outer = o.scope();
            o.scope();
            outer.close();
        })).hasMessageEndingWith("scope at depth 1 closed while the scope at depth 2 is open; "
                + "close the innermost scope first");
        assertThatThrownBy(() -> graph(o -> {
            Thread t = new Thread(() -> o.tensor("x", 1));
            AtomicReference<Throwable> err = new AtomicReference<>();
            t.setUncaughtExceptionHandler((th, e) -> err.set(e));
            t.start();
            join(t);
            throw new IllegalStateException(err.get().getMessage());
        })).hasMessageEndingWith("the orchestrator may be used only on its own thread (dfx-orch)");
        assertThatThrownBy(() -> graph(o -> {
            Tensor t = o.tensor("t", 4, 4);
            t.tile(3, 3, 2, 2);
        })).hasMessageEndingWith("region [3, 3]+[2, 2] leaves t#1[4, 4] in dimension 0");
    }

    @Test
    void aProbeThatThrowsAbortsTheRunInsteadOfHangingIt() {
        Probe bad = new Probe() {
            @Override
            public CoreProbe core(int core) {
                return new CoreProbe() {
                    @Override
                    public void taskEnd(TaskView task, long s, long e, long[] d, boolean failed) {
                        throw new IllegalStateException("recorder bug");
                    }
                };
            }
        };
        assertThatThrownBy(() -> TaskRuntime.run(RuntimeConfig.defaults(), bad, o -> {
            Function f = o.function("f", NOOP);
            for (int i = 0; i < 100; i++) {
                o.submit(f, Args.of());
            }
        })).isInstanceOf(TaskFailedException.class)
                .hasMessageMatching("core [01] failed outside a kernel: java.lang.IllegalStateException: recorder bug");
    }

    @Test
    void configRejectsOutOfRangeSizes() {
        assertThatThrownBy(() -> RuntimeConfig.defaults().withSchedulers(0))
                .hasMessage("schedulers must be 1..64, got 0");
        assertThatThrownBy(() -> RuntimeConfig.defaults().withWindow(-1)).hasMessage("window must be 1..16777216, got -1");
        assertThat(RuntimeConfig.defaults()).isEqualTo(new RuntimeConfig(1, 2, 4096, 2, 1024, true));
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
