package dev.dfx.runtime.subsystem.deps;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.ArgKind;
import dev.dfx.record.Subsystem;
import dev.dfx.record.TaskId;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.OutputFile;
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
import dev.dfx.runtime.recording.Recording;
import dev.dfx.runtime.recording.RecordingConfig;
import dev.dfx.runtime.recording.RecordingPlan;
import dev.dfx.runtime.workload.Scoped;
import dev.dfx.runtime.workload.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * deps.json streamed from the deps chunk file while another thread replays the same file into its edges: every
 * submit of the workload appears exactly once, in submit order, with what the runtime's own task graph says about
 * it (explicit deps, tensor arguments), each tensor once in order of first use, and the edges are the graph's. The
 * overlap of the two threads is forced many times over on one shared reader, and each write is byte-identical.
 */
@Timeout(120)
class DepsJsonTest {
    static final List<String> NAMES = SmallWorkloads.NAMES;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ROUNDS = 20;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @FieldSource("NAMES")
    void everySubmitOnceInSubmitOrderWithTheGraphsArgsAndEdges(String name) throws Exception {
        check(SmallWorkloads.named(name).get(), SmallWorkloads.named(name).get());
    }

    @Test
    void overflowChainsGiveEveryExplicitDep() throws Exception {
        check(new Scoped(5, 70, 4), new Scoped(5, 70, 4)); // sums with 70 explicit deps: one overflow record each
    }

    @ParameterizedTest
    @ValueSource(strings = {"weights", "", "a\"b", "back\\slash", "tab\tnew\nline", "\u0001\u001f\u007f", "caf\u00e9",
            "\u00ff\u0080"})
    void aTensorNameIsTheStringAJsonMapperWrites(String name) throws Exception {
        String quoted = JSON.writeValueAsString(name);
        assertThat(new String(DepsJson.string(name), StandardCharsets.UTF_8))
                .isEqualTo(quoted.substring(1, quoted.length() - 1));
    }

    private void check(Workload recorded, Workload again) throws Exception {
        TaskGraph g = TaskRuntime.run(RuntimeConfig.defaults(), Probe.NONE, again).graph();
        Path dir = tmp.resolve(recorded.name());
        RecordingConfig c = RecordingConfig.defaults().withSubsystems(EnumSet.of(Subsystem.DEPS))
                .withWorkload(recorded.name()).withOutput(dir);
        RunManifest m = new Recording(RecordingPlan.of(c, tmp, recorded)).run(List.of());
        assertThat(m.status()).isEqualTo("ok");
        assertThat(m.outputs()).filteredOn(o -> o.path().equals(DepsJson.FILE)).singleElement()
                .extracting(OutputFile::entries).isEqualTo((long) g.tasks().size());
        JsonNode deps = JSON.readTree(dir.resolve(DepsJson.FILE).toFile());
        assertTasks(deps, g);
        assertThat(edges(deps)).containsExactlyElementsOf(g.edges().stream().map(DepsJsonTest::text).toList());

        byte[] written = Files.readAllBytes(dir.resolve(DepsJson.FILE));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ChunkReader reader = ChunkRecords.open(dir, Subsystem.DEPS)) {
            for (int r = 0; r < ROUNDS; r++) {
                Path out = tmp.resolve("deps-" + r + ".json");
                CountDownLatch go = new CountDownLatch(1);
                CompletableFuture<List<Edge>> replayed = CompletableFuture.supplyAsync(unchecked(() -> {
                    go.await();
                    return DepsReplay.replay(reader);
                }), pool);
                CompletableFuture<OutputFile> json = CompletableFuture.supplyAsync(unchecked(() -> {
                    go.await();
                    return DepsJson.write(reader, replayed::join, out);
                }), pool);
                go.countDown();
                assertThat(json.join().entries()).isEqualTo(g.tasks().size());
                assertThat(Files.readAllBytes(out)).as("round " + r).isEqualTo(written);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> Supplier<T> unchecked(Callable<T> c) {
        return () -> {
            try {
                return c.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** Each submit once, in submit order; its explicit deps and tensor arguments as the graph has them. */
    private static void assertTasks(JsonNode deps, TaskGraph g) {
        JsonNode tasks = deps.get("tasks");
        assertThat(tasks).hasSize(g.tasks().size());
        Map<Integer, String> firstUse = new LinkedHashMap<>();
        List<TaskInfo> bySubmit = new ArrayList<>(g.tasks());
        bySubmit.sort((a, b) -> Long.compare(a.submitIndex(), b.submitIndex()));
        for (int i = 0; i < bySubmit.size(); i++) {
            TaskInfo t = bySubmit.get(i);
            JsonNode j = tasks.get(i);
            assertThat(j.get("task_id").asText()).isEqualTo(TaskId.text(t.taskId()));
            List<String> explicit = new ArrayList<>();
            j.get("explicit_deps").forEach(d -> explicit.add(d.asText()));
            assertThat(explicit).containsExactlyElementsOf(t.explicitDeps().stream().map(TaskId::text).toList());
            List<String> args = new ArrayList<>();
            j.get("args").forEach(a -> args.add(a.get("idx").asInt() + " " + a.get("tensor_id").asText() + " "
                    + a.get("role").asText() + " " + a.get("version").asInt() + " " + a.get("start_offset").asText()
                    + " " + a.get("shape") + " " + a.get("strides")));
            List<String> expected = new ArrayList<>();
            for (ArgInfo a : t.args()) {
                if (a.kind() == ArgKind.TENSOR) {
                    expected.add(a.index() + " " + a.tensorId() + " " + a.role().name().toLowerCase(Locale.ROOT) + " "
                            + a.version() + " " + a.startOffset() + " " + ints(a.shape()) + " " + ints(a.strides()));
                    firstUse.putIfAbsent(a.tensorId(), a.tensorName());
                }
            }
            assertThat(args).as(TaskId.text(t.taskId())).containsExactlyElementsOf(expected);
        }
        Map<Integer, String> tensors = new LinkedHashMap<>();
        deps.get("tensors").forEach(t -> assertThat(tensors.put(t.get("tensor_id").asInt(), t.get("name").asText()))
                .as("tensor " + t.get("tensor_id") + " once").isNull());
        assertThat(tensors).containsExactlyEntriesOf(firstUse);
    }

    private static String ints(List<Integer> v) {
        return v.toString().replace(" ", "");
    }

    private static String text(Edge e) {
        return TaskId.text(e.pred()) + ">" + TaskId.text(e.succ()) + " " + (e.source() == EdgeSource.EXPLICIT
                ? "explicit" : "t" + e.tensorId() + " a" + e.argIndex() + " " + e.hazard().name().toLowerCase(Locale.ROOT));
    }

    private static List<String> edges(JsonNode deps) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : deps.get("edges")) {
            boolean explicit = e.get("source").asText().equals("explicit");
            out.add(e.get("pred").asText() + ">" + e.get("succ").asText() + " " + (explicit ? "explicit"
                    : "t" + e.get("tensor_id").asText() + " a" + e.get("arg").asInt() + " " + e.get("hazard").asText()));
        }
        return out;
    }
}
