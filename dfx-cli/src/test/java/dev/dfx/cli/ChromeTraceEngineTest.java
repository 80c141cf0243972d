package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's trace.json in a second real client: Chrome's own trace engine (npm {@code @paulirish/trace_engine}, the
 * model behind DevTools' Performance panel and Lighthouse), installed by {@code scripts/trace-engine.sh} into
 * {@code target/trace-engine} at the version pinned in {@code src/test/trace-engine/package-lock.json}. The engine
 * must place every slice on a track and bind every dependency arrow at both ends: its slice count is the number of
 * swimlane records run.json counts as collected (one slice each), its arrows the distinct dependency pairs of
 * deps.json; a recorded C program's flow arrows bind as well. Skipped, with the reason, only when the npm registry
 * cannot be reached.
 */
@Timeout(900)
class ChromeTraceEngineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    static Path engine;

    @BeforeAll
    static void install() throws IOException, InterruptedException {
        Path dir = Paths.get("target", "trace-engine").toAbsolutePath();
        Path log = tmp.resolve("trace-engine.log");
        Process p = new ProcessBuilder("bash", RepoScripts.find("trace-engine.sh").toString(), dir.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(15, TimeUnit.MINUTES)).as("scripts/trace-engine.sh finished").isTrue();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Assumptions.assumeTrue(p.exitValue() != 3, () -> "Chrome's trace engine not installed: " + out.strip());
        assertThat(p.exitValue()).as(out).isZero();
        engine = dir;
    }

    /** @return the engine's counts for {@code trace}: slices, flows, flow_points */
    private static JsonNode counts(Path trace) throws IOException, InterruptedException {
        Path out = tmp.resolve("counts.json");
        Path err = tmp.resolve("counts.err");
        Process p = new ProcessBuilder("node", engine.resolve("trace-counts.mjs").toString(), trace.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("node trace-counts.mjs finished").isTrue();
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        return JSON.readTree(out.toFile());
    }

    @Test
    void chromesTraceEngineReadsEverySliceAndBindsEveryDependencyArrow() throws Exception {
        Path run = tmp.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-s", "swimlane,deps", "-o", run.toString(), "--quiet");
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode manifest = JSON.readTree(run.resolve("run.json").toFile());
        long swimlaneRecords = 0;
        for (JsonNode s : manifest.get("subsystems")) {
            assertThat(s.get("dropped").asLong()).as(s.get("name").asText() + " dropped").isZero();
            if (s.get("name").asText().equals("swimlane")) {
                swimlaneRecords = s.get("collected").asLong();
            }
        }
        Set<String> pairs = new HashSet<>();
        for (JsonNode e : JSON.readTree(run.resolve("deps.json").toFile()).get("edges")) {
            pairs.add(e.get("pred").asText() + ">" + e.get("succ").asText());
        }
        assertThat(pairs).isNotEmpty();

        JsonNode trace = RecordCommandTest.trace(run); // also the trace-event checks, Chrome's binding rules among them
        JsonNode counts = counts(run.resolve("trace.json"));
        assertThat(swimlaneRecords).isPositive();
        assertThat(counts.get("slices").asLong()).isEqualTo(swimlaneRecords)
                .isEqualTo(RecordCommandTest.events(trace, "X", null).size());
        assertThat(counts.get("flows").asLong()).isEqualTo(pairs.size());
        assertThat(counts.get("flow_points").asLong()).isEqualTo(2L * pairs.size());

        // the same trace drawn again by dfx export reads the same
        Path again = tmp.resolve("again.json");
        assertThat(CliRun.dfx("export", run.toString(), "--format", "chrome", "-o", again.toString()).status()).isZero();
        assertThat(counts(again)).isEqualTo(counts);
    }

    @Test
    void aRecordedProgramsFlowArrowsBindInChromeToo() throws Exception {
        // examples/c/hello.c: main's "start workers" slice starts two "handoff" arrows, each ending inside a worker's
        // "worker" slice; the arrows leave from and end at the slices' starts with their cat, so Chrome binds both
        Path exe = CPrograms.build(CPrograms.ROOT.resolve("examples/c/hello.c"), tmp.resolve("hello"));
        Path run = tmp.resolve("program");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", exe.toString());
        assertThat(d.status()).as(d.output()).isZero();
        JsonNode trace = RecordCommandTest.trace(run);
        JsonNode counts = counts(run.resolve("trace.json"));
        assertThat(trace.at("/metadata/user_events/flow_arrows").asLong()).isEqualTo(2);
        assertThat(counts.get("flows").asLong()).isEqualTo(2);
        assertThat(counts.get("slices").asLong()).isEqualTo(RecordCommandTest.events(trace, "X", null).size())
                .isEqualTo(trace.at("/metadata/user_events/slices").asLong());
    }

    @Test
    void aTraceWhoseArrowsCarryAnotherCategoryBindsNoneInChrome() throws Exception {
        // the engine's binding rule, shown on a hand-written trace: same arrow, once with the slices' cat and once
        // with its own, so a pass of the test above cannot come from an engine that binds anything
        Path trace = tmp.resolve("two-arrows.json");
        Files.writeString(trace, String.join("\n", List.of(
                "{\"traceEvents\":[",
                "{\"ph\":\"X\",\"name\":\"a\",\"cat\":\"task\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5},",
                "{\"ph\":\"X\",\"name\":\"b\",\"cat\":\"task\",\"pid\":1,\"tid\":2,\"ts\":9,\"dur\":5},",
                "{\"ph\":\"s\",\"name\":\"dep\",\"cat\":\"task\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":1},",
                "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"dep\",\"cat\":\"task\",\"id\":1,\"pid\":1,\"tid\":2,\"ts\":9},",
                "{\"ph\":\"s\",\"name\":\"dep\",\"cat\":\"flow\",\"id\":2,\"pid\":1,\"tid\":1,\"ts\":1},",
                "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"dep\",\"cat\":\"flow\",\"id\":2,\"pid\":1,\"tid\":2,\"ts\":9}",
                "]}")));
        JsonNode counts = counts(trace);
        assertThat(counts.get("slices").asLong()).isEqualTo(2);
        assertThat(counts.get("flows").asLong()).isEqualTo(1);
    }
}
