package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgPayload;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.ArgRole;
import dev.dfx.record.ArgStage;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.CoreType;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.ScopePhase;
import dev.dfx.record.ScopeRecord;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TensorSlot;
import dev.dfx.runtime.graph.ArgInfo;
import dev.dfx.runtime.graph.TaskGraph;
import dev.dfx.runtime.graph.TaskInfo;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.CounterSource;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.probe.ScopeStats;
import dev.dfx.runtime.probe.TaskView;
import dev.dfx.runtime.workload.Scoped;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the hooks hand over is enough to write every record: a minimal recorder writes deps, swimlane,
 * pmu, args and scopes records into plain segments (one per lane, as the pipeline will), and reading them
 * back gives the run's own graph, arguments and data.
 */
@Timeout(60)
class HooksFillRecordsTest {
    /** One lane's records: a growing segment and a count. */
    static final class Lane {
        final int size;
        MemorySegment seg = Arena.ofAuto().allocate(1 << 16, 8);
        int count;

        Lane(int size) {
            this.size = size;
        }

        /** @return offset of {@code n} fresh consecutive record slots */
        long claim(int n) {
            long need = (long) (count + n) * size;
            if (need > seg.byteSize()) {
                MemorySegment bigger = Arena.ofAuto().allocate(Math.max(need, seg.byteSize() * 2), 8);
                bigger.copyFrom(seg);
                seg = bigger;
            }
            long off = (long) count * size;
            count += n;
            return off;
        }
    }

    final Lane submits = new Lane(SubmitRecord.SIZE);
    final Lane scopes = new Lane(ScopeRecord.SIZE);
    // each core thread asks for its probe as it starts, so the lanes are put concurrently
    final Map<Integer, Lane> coreTasks = new ConcurrentHashMap<>();
    final Map<Integer, Lane> pmu = new ConcurrentHashMap<>();
    final Map<Integer, Lane> args = new ConcurrentHashMap<>();
    final Map<Integer, Lane> arenas = new ConcurrentHashMap<>(); // payload bytes, record size 1

    final Probe recorder = new Probe() {
        @Override
        public OrchestratorProbe orchestrator() {
            return new OrchestratorProbe() {
                @Override
                public void submitted(TaskView t, long startNs, long endNs, long waitNs) {
                    long off = submits.claim(SubmitRecord.chainLength(t.explicitDepCount()));
                    long[] deps = new long[t.explicitDepCount()];
                    for (int i = 0; i < deps.length; i++) {
                        deps[i] = t.explicitDep(i);
                    }
                    SubmitRecord.Encoder submit = new SubmitRecord.Encoder().wrap(submits.seg, off).taskId(t.taskId())
                            .flags(t.flags()).tensorCount(t.tensorArgCount()).explicitDeps(deps, deps.length)
                            .kernelIds(new int[] {t.funcId()}).blockNum(1);
                    int slot = 0;
                    for (int i = 0; i < t.argCount(); i++) {
                        ArgView a = t.arg(i);
                        if (a.kind() == ArgKind.TENSOR) {
                            submit.argType(slot, a.role());
                            submit.tensor(slot++).tensorId(a.tensorId()).bufferNumel(a.tensorNumel())
                                    .startOffset(a.startOffset()).version(a.tensorVersion()).dtype(a.dtype())
                                    .role(a.role()).flags(a.marked() ? TensorSlot.FLAG_MARKED : 0)
                                    .region(a.ndims(), a.shape(), a.strides()).argIndex(i).name(a.tensorName());
                        }
                    }
                }

                @Override
                public void scope(ScopePhase phase, ScopeStats s) {
                    new ScopeRecord.Encoder().wrap(scopes.seg, scopes.claim(1)).timeNs(s.timeNs())
                            .siteFile(s.siteFile()).siteLine(s.siteLine()).heapStart(s.heapTail()).heapEnd(s.heapHead())
                            .taskStart(s.taskWindowTail()).taskEnd(s.taskWindowHead()).depPoolStart(s.depPoolTail())
                            .depPoolEnd(s.depPoolHead()).tensorMapUsed(s.tensorMapUsed()).depth(s.depth())
                            .ringId(s.ring()).phase(phase);
                }
            };
        }

        @Override
        public CoreProbe core(int core) {
            Lane tasks = new Lane(CoreTaskRecord.SIZE);
            Lane counters = new Lane(PmuRecord.SIZE);
            coreTasks.put(core, tasks);
            pmu.put(core, counters);
            return new CoreProbe() {
                @Override
                public CounterSource counterSource() {
                    return CounterSource.jvmThread();
                }

                @Override
                public void taskEnd(TaskView t, long startNs, long endNs, long[] deltas, boolean failed) {
                    new CoreTaskRecord.Encoder().wrap(tasks.seg, tasks.claim(1)).startNs(startNs).endNs(endNs)
                            .taskId(t.taskId()).funcId(t.funcId()).coreId(core).coreType(CoreType.CPU)
                            .flags(failed ? CoreTaskRecord.FLAG_FAILED : 0);
                    new PmuRecord.Encoder().wrap(counters.seg, counters.claim(1)).taskId(t.taskId()).funcId(t.funcId())
                            .coreType(CoreType.CPU).totalNs(endNs - startNs).counters(deltas, deltas.length)
                            .endNs(endNs);
                }
            };
        }

        @Override
        public SchedulerProbe scheduler(int scheduler) {
            Lane records = new Lane(ArgRecord.SIZE);
            Lane arena = new Lane(1);
            args.put(scheduler, records);
            arenas.put(scheduler, arena);
            return new SchedulerProbe() {
                @Override
                public void argCaptured(TaskView t, int i, ArgStage stage, long timeNs) {
                    ArgView a = t.arg(i);
                    long off = records.claim(1);
                    if (a.kind() == ArgKind.SCALAR) {
                        new ArgRecord.Encoder().wrap(records.seg, off).taskId(t.taskId()).funcIds(t.funcId()).argIndex(i)
                                .role(ArgRole.INPUT).stage(stage).kind(ArgKind.SCALAR).flags(0).captureNs(timeNs)
                                .dtype(a.dtype()).noRegion().startOffset(0).tensorId(0)
                                .payloadOffset(ArgRecord.NO_PAYLOAD).payloadSize(0).truncated(false)
                                .scalarValue(a.scalarBits());
                        return;
                    }
                    long bytes = a.numel() * a.dtype().bytes();
                    long at = arena.claim((int) bytes);
                    ArgPayload.gather(a.data(), a.startOffset(), a.ndims(), a.shape(), a.strides(), arena.seg, at, bytes);
                    new ArgRecord.Encoder().wrap(records.seg, off).taskId(t.taskId()).funcIds(t.funcId()).argIndex(i)
                            .role(a.role()).stage(stage).kind(ArgKind.TENSOR).flags(a.marked() ? ArgRecord.FLAG_MARKED : 0)
                            .captureNs(timeNs).dtype(a.dtype()).tensorId(a.tensorId()).startOffset(a.startOffset())
                            .region(a.ndims(), a.shape(), a.strides()).payloadOffset(at).payloadSize(bytes)
                            .truncated(false).scalarValue(0);
                }
            };
        }
    };

    @Test
    void recordsWrittenFromTheHooksReadBackAsTheRun() {
        Scoped w = new Scoped(3, 70, 4); // each sum has 70 explicit deps: a submit record + 1 overflow record
        RunResult r = TaskRuntime.run(RuntimeConfig.defaults(), recorder, w);
        w.check();
        TaskGraph g = r.graph();

        // deps: walk the chains; every task's deps and tensor slots are the graph's
        List<TaskInfo> fromRecords = new ArrayList<>();
        SubmitRecord.View head = new SubmitRecord.View();
        TensorSlot.View slot = new TensorSlot.View();
        Map<Long, TaskInfo> byId = g.byId();
        for (int i = 0; i < submits.count; i += SubmitRecord.chainLength(head.explicitDepCount())) {
            head.wrap(submits.seg, (long) i * SubmitRecord.SIZE);
            TaskInfo info = byId.get(head.taskId());
            fromRecords.add(info);
            assertThat(SubmitRecord.readExplicitDeps(submits.seg, (long) i * SubmitRecord.SIZE))
                    .containsExactly(info.explicitDeps().stream().mapToLong(Long::longValue).toArray());
            assertThat(head.flags() & SubmitRecord.IN_MANUAL_SCOPE).isEqualTo(info.flags());
            assertThat(head.kernelId(0)).isEqualTo(info.funcId());
            List<ArgInfo> tensors = info.args().stream().filter(a -> a.kind() == ArgKind.TENSOR).toList();
            assertThat(head.tensorCount()).isEqualTo(tensors.size());
            for (int s = 0; s < tensors.size(); s++) {
                head.tensor(s, slot);
                assertThat(slot.tensorId()).isEqualTo(tensors.get(s).tensorId());
                assertThat(slot.startOffset()).isEqualTo(tensors.get(s).startOffset());
                assertThat(slot.shape(0)).isEqualTo((long) tensors.get(s).shape().get(0));
                assertThat(slot.role()).isEqualTo(tensors.get(s).role());
                assertThat(slot.name()).isEqualTo(tensors.get(s).tensorName());
            }
        }
        assertThat(fromRecords).containsExactlyElementsOf(g.tasks());
        assertThat(submits.count).isEqualTo(g.tasks().size() + 3); // three overflow records

        // swimlane + pmu: one core record and one pmu record per task, with the same task and function
        Map<Long, Integer> funcs = new HashMap<>();
        CoreTaskRecord.View core = new CoreTaskRecord.View();
        PmuRecord.View p = new PmuRecord.View();
        coreTasks.forEach((c, lane) -> {
            for (int i = 0; i < lane.count; i++) {
                core.wrap(lane.seg, (long) i * CoreTaskRecord.SIZE);
                p.wrap(pmu.get(c).seg, (long) i * PmuRecord.SIZE);
                assertThat(core.coreId()).isEqualTo(c);
                assertThat(p.taskId()).isEqualTo(core.taskId());
                assertThat(p.totalNs()).isEqualTo(core.endNs() - core.startNs());
                funcs.put(core.taskId(), core.funcId());
            }
        });
        assertThat(funcs).hasSize(g.tasks().size());
        g.tasks().forEach(t -> assertThat(funcs.get(t.taskId())).isEqualTo(t.funcId()));

        // args: the marked sum inputs' payloads hold the burst's outputs as the kernel saw them
        ArgRecord.View a = new ArgRecord.View();
        int marked = 0;
        for (Map.Entry<Integer, Lane> e : args.entrySet()) {
            for (int i = 0; i < e.getValue().count; i++) {
                a.wrap(e.getValue().seg, (long) i * ArgRecord.SIZE);
                if ((a.flags() & ArgRecord.FLAG_MARKED) == 0) {
                    continue;
                }
                marked++;
                assertThat(a.stage()).isEqualTo(ArgStage.AFTER_COMPLETION); // the sum's marked output
                float got = arenas.get(e.getKey()).seg.get(
                        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), a.payloadOffset());
                assertThat(a.payloadSize()).isEqualTo(4);
                assertThat(got).isEqualTo(w.sum((int) (a.startOffset())));
            }
        }
        assertThat(marked).isEqualTo(3);

        // scopes: root + 3 manual scopes, begin and end each
        assertThat(scopes.count).isEqualTo(8);
        ScopeRecord.View sv = new ScopeRecord.View().wrap(scopes.seg, 7L * ScopeRecord.SIZE);
        assertThat(sv.phase()).isEqualTo(ScopePhase.END);
        assertThat(sv.depth()).isZero();
        assertThat(sv.heapEnd()).isEqualTo(3L * 70 * 4 * Float.BYTES);
    }
}
