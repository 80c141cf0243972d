package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.LaneSequence;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.ArgRole;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.OrchPhaseRecord;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.SchedTaskRecord;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.record.TaskId;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.OutputSeal;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.RuntimeConfig;
import dev.dfx.runtime.SmallWorkloads;
import dev.dfx.runtime.TaskRuntime;
import dev.dfx.runtime.graph.ArgInfo;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.EdgeSource;
import dev.dfx.runtime.graph.TaskGraph;
import dev.dfx.runtime.graph.TaskInfo;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.workload.Flood;
import dev.dfx.runtime.workload.Scoped;
import dev.dfx.runtime.workload.Workload;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * A recording of each workload (small instances) holds what the workload implies, checked against the run's own
 * dependency graph (an independent run of the same deterministic program with the graph kept): one core task,
 * scheduler task, orchestrator phase and pmu record per task, one deps record per submit plus its overflow
 * records, args records and payload bytes per captured argument (level 2: every argument), balanced scopes, no
 * loss under BLOCK, and deps.json edges equal to the graph's edges.
 */
@Timeout(120)
class RecordingTest {
    static final List<String> NAMES = SmallWorkloads.NAMES;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static RunManifest record(Workload w, RecordingConfig c, Path dir) {
        RecordingPlan plan = RecordingPlan.of(c.withWorkload(w.name()).withOutput(dir), dir.getParent(), w);
        return new Recording(plan).run(List.of());
    }

    private static TaskGraph graph(String name) {
        return graph(SmallWorkloads.named(name).get());
    }

    private static TaskGraph graph(Workload w) {
        return TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, w).graph();
    }

    @ParameterizedTest
    @FieldSource("NAMES")
    void recordingHoldsWhatTheWorkloadImplies(String name) throws IOException {
        TaskGraph g = graph(name);
        int tasks = g.tasks().size();
        Path dir = tmp.resolve(name);
        RunManifest m = record(SmallWorkloads.named(name).get(), RecordingConfig.defaults().withLevels(4, 2), dir);

        assertThat(m.status()).isEqualTo("ok");
        assertThat(m.workload().check()).isEqualTo("ok");
        assertThat(m.workload().tasks()).isEqualTo(tasks);
        assertThat(m.subsystems()).extracting(RunManifest.SubsystemReport::name)
                .containsExactly("swimlane", "args", "pmu", "scopes", "deps");
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            assertThat(s.dropped()).as(s.name() + " dropped").isZero();
            assertThat(s.silentLoss()).as(s.name() + " silent loss").isZero();
            assertThat(s.collected()).as(s.name()).isEqualTo(s.total());
        }

        assertThat(count(dir, CoreTaskRecord.KIND)).isEqualTo(tasks);
        assertThat(count(dir, SchedTaskRecord.KIND)).isEqualTo(tasks);
        assertThat(count(dir, OrchPhaseRecord.KIND)).isEqualTo(tasks);
        assertThat(count(dir, SchedPhaseRecord.KIND)).isPositive();
        assertThat(count(dir, PmuRecord.KIND)).isEqualTo(tasks);
        long overflow = g.tasks().stream().mapToLong(t -> SubmitRecord.chainLength(t.explicitDeps().size()) - 1).sum();
        assertThat(count(dir, SubmitRecord.KIND)).isEqualTo(tasks + overflow);

        // args, level 2: inputs, in-outs and scalars before dispatch, outputs and in-outs after completion
        long captures = 0;
        long payloadBytes = 0;
        for (TaskInfo t : g.tasks()) {
            for (ArgInfo a : t.args()) {
                int times = a.kind() == ArgKind.SCALAR ? 1 : a.role() == ArgRole.INOUT ? 2 : 1;
                captures += times;
                if (a.kind() == ArgKind.TENSOR) {
                    payloadBytes += times * Float.BYTES * a.shape().stream().mapToLong(Integer::longValue)
                            .reduce(1, (x, y) -> x * y);
                }
            }
        }
        assertThat(count(dir, ArgRecord.KIND)).isEqualTo(captures);
        JsonNode args = JSON.readTree(dir.resolve("args/args.json").toFile());
        assertThat(args.get("total_args").asLong()).isEqualTo(captures);
        assertThat(args.get("payload_bytes").asLong()).isEqualTo(payloadBytes);
        assertThat(Files.size(dir.resolve("args/args.bin"))).isEqualTo(payloadBytes);

        assertThat(depsEdges(dir)).containsExactlyElementsOf(g.edges().stream().map(RecordingTest::text).toList());
        assertThat(Files.readAllLines(dir.resolve("pmu.csv"))).hasSize(tasks + 1)
                .first().as("default counter: allocated bytes (thread CPU time only on request)")
                .isEqualTo("core_id,task_id,func_id,core_type,total_ns,end_ns,jvm/alloc-bytes/");
        try (ChunkReader deps = ChunkRecords.open(dir, Subsystem.DEPS)) {
            assertThat(deps.chunks()).as("sparse deps records are stored zero-block encoded")
                    .allMatch(ChunkInfo::zeroBlocks);
            assertThat(Files.size(deps.path())).isLessThan((tasks + overflow) * (long) SubmitRecord.SIZE / 4);
        }
        assertScopesBalanced(dir);
    }

    @Test
    void aWrongResultFailsTheRunAndTheTraceIsDrawnAfterTheCheckWhileTheOutputsAreWrittenAndSealed() throws IOException {
        // the fifth task's kernel does nothing: its rows of y stay NaN, which the check names; the check runs while the
        // subsystems' outputs are written, and the extra exports (the trace) start only after it
        AtomicInteger calls = new AtomicInteger();
        Workload w = new Flood(300, 8).withKernel("axpb", k -> a -> {
            if (calls.incrementAndGet() != 5) {
                k.run(a);
            }
        });
        Path dir = tmp.resolve("flood");
        List<String> extraSaw = new ArrayList<>();
        RecordingPlan plan = RecordingPlan.of(RecordingConfig.defaults().withWorkload(w.name()).withOutput(dir),
                tmp, w);
        RunManifest m = new Recording(plan).run(List.of((run, man, deps) -> {
            extraSaw.add(man.status());
            extraSaw.add(man.workload().check());
            Files.writeString(run.resolve("extra.txt"), "drawn\n");
            return OutputFile.written("extra.txt", 1);
        }));

        assertThat(m.workload().check()).startsWith("flood: y[").contains("expected");
        assertThat(m.status()).isEqualTo("failed");
        assertThat(m.reason()).isEqualTo("workload check failed: " + m.workload().check());
        assertThat(extraSaw).containsExactly("failed", m.workload().check());
        assertThat(ManifestFile.read(dir).workload().check()).isEqualTo(m.workload().check());
        for (String written : List.of("deps.json", "pmu.csv", "scopes.jsonl", "extra.txt")) {
            OutputFile o = m.outputs().stream().filter(f -> f.path().equals(written)).findFirst().orElseThrow();
            assertThat(o.written()).as(written).isTrue();
            assertThat(o.bytes()).as(written + " sealed").isEqualTo(Files.size(dir.resolve(written)));
            assertThat(OutputSeal.check(dir, o)).as(written).isNull();
        }
    }

    @Test
    void markedPayloadsHoldWhatTheKernelWrote() throws IOException {
        Scoped w = new Scoped(5, 70, 4); // sums with 70 explicit deps: a submit record and an overflow record each
        Path dir = tmp.resolve("scoped");
        RunManifest m = record(w, RecordingConfig.defaults(), dir); // args level 1: the marked sum outputs
        assertThat(m.status()).isEqualTo("ok");
        JsonNode args = JSON.readTree(dir.resolve("args/args.json").toFile()).get("args");
        assertThat(args).hasSize(5);
        ByteBuffer bin = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("args/args.bin"))).order(ByteOrder.LITTLE_ENDIAN);
        for (JsonNode a : args) {
            assertThat(a.get("stage").asText()).isEqualTo("after_completion");
            assertThat(a.get("marked").asBoolean()).isTrue();
            assertThat(a.get("bin_size").asLong()).isEqualTo(4);
            int burst = a.get("start_offset").asInt(); // sums.rows(b, 1)
            assertThat(bin.getFloat(a.get("bin_offset").asInt())).isEqualTo(w.sum(burst));
        }
        assertThat(count(dir, SubmitRecord.KIND)).isEqualTo(5 * 71 + 5);
        assertThat(JSON.readTree(dir.resolve("deps.json").toFile()).get("tasks").get(70).get("explicit_deps"))
                .hasSize(70);
    }

    @Test
    void payloadsThatWrapTheArenaWaitForTheHostAndAllArrive() throws IOException {
        // decoder of 6 layers, 64 tokens x 256: every matvec names 128 KiB of inputs; the arena is 1 MiB
        Path dir = tmp.resolve("wrap");
        Workload w = new dev.dfx.runtime.workload.Decoder(6, 4, 64, 256);
        RecordingConfig c = RecordingConfig.defaults().withSubsystems(EnumSet.of(Subsystem.ARGS)).withLevels(4, 2)
                .withBackpressure(BackpressurePolicy.BLOCK, List.of("args=1x1"));
        RunManifest m = record(w, c, dir);
        assertThat(m.status()).isEqualTo("ok");
        RunManifest.SubsystemReport args = m.subsystem("args");
        assertThat(args.dropped()).isZero();
        assertThat(args.details().get("arena_bytes_per_lane")).isEqualTo(1L << 20);
        assertThat(args.details().get("dropped_payloads")).isEqualTo(0L);
        long expected = 0;
        for (TaskInfo t : graph(new dev.dfx.runtime.workload.Decoder(6, 4, 64, 256)).tasks()) {
            for (ArgInfo a : t.args()) {
                long bytes = Float.BYTES * a.shape().stream().mapToLong(Integer::longValue).reduce(1, (x, y) -> x * y);
                expected += a.role() == ArgRole.INOUT ? 2 * bytes : bytes;
            }
        }
        assertThat(expected).as("several laps of the arena").isGreaterThan(3L << 20);
        assertThat(Files.size(dir.resolve("args/args.bin"))).isEqualTo(expected);
        assertThat(args.stalls().count()).as("the producer waited at the wrap").isPositive();
    }

    @Test
    void aChainLongerThanADepsBufferIsTruncatedAndDepsJsonRefused() throws IOException {
        Path dir = tmp.resolve("truncated");
        RecordingConfig c = RecordingConfig.defaults().withSubsystems(EnumSet.of(Subsystem.DEPS))
                .withBackpressure(BackpressurePolicy.BLOCK, List.of("deps=4x1")); // one record per buffer
        RunManifest m = record(new Scoped(3, 70, 4), c, dir); // each sum needs a chain of 2
        assertThat(m.status()).isEqualTo("ok");
        RunManifest.SubsystemReport deps = m.subsystem("deps");
        assertThat(deps.dropped()).isZero();
        assertThat(deps.total()).as("one record per submit, the sums' chains cut to one").isEqualTo(3 * 71);
        assertThat(deps.details().get("truncated_chains")).isEqualTo(3L);
        assertThat(dir.resolve("deps.json")).doesNotExist();
        assertThat(m.outputs()).anyMatch(o -> o.path().equals("deps.json") && !o.written()
                && o.note().startsWith("3 submits had more explicit deps"));
    }

    @Test
    void dropWithTinyPoolsCountsEveryLossAndRefusesDepsJson() throws IOException {
        Path dir = tmp.resolve("drop");
        RecordingConfig c = RecordingConfig.defaults().withLevels(4, 2)
                .withBackpressure(BackpressurePolicy.DROP, List.of("swimlane=1x2", "pmu=1x2", "deps=1x2", "args=1x2",
                        "scopes=1x1"));
        RunManifest m = record(SmallWorkloads.named("gemm").get(), c, dir);
        assertThat(m.status()).isEqualTo("ok");
        long dropped = 0;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            assertThat(s.collected() + s.dropped()).as(s.name() + " reconciles").isEqualTo(s.total());
            assertThat(s.reconciled()).isTrue();
            assertThat(s.stalls().count()).as("DROP never waits").isZero();
            for (RunManifest.Lane l : s.lanes()) {
                assertThat(l.collected() + l.droppedByCause().values().stream().mapToLong(Long::longValue).sum())
                        .isEqualTo(l.total());
            }
            dropped += s.dropped();
            assertThat(countAll(dir, s.name())).as(s.name() + " chunk records").isEqualTo(s.collected());
        }
        assertThat(dropped).isPositive();
        RunManifest.SubsystemReport deps = m.subsystem("deps");
        if (deps.dropped() > 0) {
            assertThat(Files.exists(dir.resolve("deps.json"))).isFalse();
            assertThat(m.outputs()).anyMatch(o -> o.path().equals("deps.json") && !o.written()
                    && o.note().contains("dropped"));
        }
    }

    @Test
    void blockWithTinyPoolsLosesNothingAndShowsTheStalledLanes() throws IOException {
        Path dir = tmp.resolve("block");
        RecordingConfig c = RecordingConfig.defaults();
        c = new RecordingConfig(c.workload(), c.subsystems(), 4, 1, BackpressurePolicy.BLOCK, c.backstop(),
                java.time.Duration.ZERO, List.of("swimlane=1x1", "pmu=1x1", "deps=1x1", "args=1x1", "scopes=1x1"),
                null, "gfx12", 1, 2, null, List.of("test"));
        RunManifest m = record(SmallWorkloads.named("decoder").get(), c, dir);
        assertThat(m.status()).isEqualTo("ok");
        long stalls = 0;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            assertThat(s.dropped()).isZero();
            assertThat(s.collected()).isEqualTo(s.total());
            stalls += s.stalls().count();
            for (RunManifest.Lane l : s.lanes()) {
                assertThat(l.stalls().windows()).hasSize((int) l.stalls().count());
                l.stalls().windows().forEach(win -> assertThat(win.endNs()).isGreaterThanOrEqualTo(win.startNs()));
                if (l.collected() > 0) {  // each lane's collector time, to name the lane whose collector was slow
                    assertThat(l.collectLongestNs()).isPositive().isLessThanOrEqualTo(l.collectNs());
                }
            }
        }
        assertThat(stalls).as("one buffer per lane: every buffer switch waits for the host").isPositive();
        assertThat(m.subsystem("swimlane").lanes()).anyMatch(l -> l.stalls().count() > 0);
        assertThat(Files.exists(dir.resolve("deps.json"))).isTrue();
        RunManifest back = ManifestFile.read(dir); // run.json keeps every lane's counts and stall windows
        for (int i = 0; i < m.subsystems().size(); i++) {
            assertThat(back.subsystems().get(i).lanes()).isEqualTo(m.subsystems().get(i).lanes());
        }
        assertThat(back.outputs()).isEqualTo(m.outputs());
    }

    static String text(Edge e) {
        return TaskId.text(e.pred()) + ">" + TaskId.text(e.succ()) + " " + (e.source() == EdgeSource.EXPLICIT ? "explicit"
                : "t" + e.tensorId() + " a" + e.argIndex() + " " + e.hazard().name().toLowerCase(Locale.ROOT));
    }

    private static List<String> depsEdges(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode e : JSON.readTree(dir.resolve("deps.json").toFile()).get("edges")) {
            boolean explicit = e.get("source").asText().equals("explicit");
            out.add(e.get("pred").asText() + ">" + e.get("succ").asText() + " " + (explicit ? "explicit"
                    : "t" + e.get("tensor_id").asText() + " a" + e.get("arg").asInt() + " " + e.get("hazard").asText()));
        }
        return out;
    }

    private static void assertScopesBalanced(Path dir) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("scopes.jsonl"));
        assertThat(Files.readString(dir.resolve("scopes.jsonl"))).endsWith("}\n");
        for (String l : lines) {  // each line an object mapper's compact form, fields in the documented order
            assertThat(JSON.writeValueAsString(JSON.readValue(l, LinkedHashMap.class))).isEqualTo(l);
        }
        JsonNode header = JSON.readTree(lines.getFirst());
        List<String> fields = new ArrayList<>();
        header.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("format", "version", "total",
                "collected", "dropped", "depth_max", "task_window_max", "heap_max", "dep_pool_max", "tensormap_max");
        assertThat(header.get("collected").asLong()).isEqualTo(lines.size() - 1);
        Deque<Integer> open = new ArrayDeque<>();
        for (String l : lines.subList(1, lines.size())) {
            JsonNode r = JSON.readTree(l);
            int depth = r.get("depth").asInt();
            if (r.get("phase").asText().equals("begin")) {
                assertThat(depth).isEqualTo(open.size());
                open.push(depth);
            } else {
                assertThat(open.pop()).isEqualTo(depth);
            }
        }
        assertThat(open).isEmpty();
        // the root scope's pair bounds every other: it opens first (tails 0) and closes last (heads at their most)
        JsonNode first = JSON.readTree(lines.get(1));
        JsonNode last = JSON.readTree(lines.getLast());
        assertThat(header.get("heap_max").asLong())
                .isEqualTo(last.get("heap_end").asLong() - first.get("heap_start").asLong());
        assertThat(header.get("dep_pool_max").asLong())
                .isEqualTo(last.get("dep_pool_end").asLong() - first.get("dep_pool_start").asLong());
        assertThat(first.get("site").asText()).as("the root scope's site: the program's file and line")
                .matches("[A-Z][A-Za-z]*\\.java:[1-9][0-9]*").isEqualTo(last.get("site").asText());
    }

    static long count(Path dir, BufferKind kind) throws IOException {
        try (ChunkReader r = ChunkRecords.open(dir, Subsystem.of(kind))) {
            return ChunkRecords.forEach(r, kind, (lane, seg, off) -> { });
        }
    }

    private static long countAll(Path dir, String subsystem) throws IOException {
        try (ChunkReader r = ChunkRecords.open(dir, Subsystem.of(subsystem))) {
            return r.lanes().stream().mapToLong(LaneSequence::recordCount).sum();
        }
    }
}
