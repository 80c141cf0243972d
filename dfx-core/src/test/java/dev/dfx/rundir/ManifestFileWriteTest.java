package dev.dfx.rundir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.dfx.pipeline.DepthSample;
import dev.dfx.pipeline.DropWindow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ManifestFile#write}: the bytes Jackson's object mapper (snake_case, pretty-printed, the configuration
 * run.json was written with before) gives the same manifest, for every record type of the schema with its optional
 * fields set and null, empty and non-empty lists and maps, text that needs escaping, and extreme numbers; and a
 * manifest written reads back equal.
 */
class ManifestFileWriteTest {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    @TempDir
    Path tmp;

    private static byte[] written(RunManifest m) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ManifestFile.write(out, m);
        return out.toByteArray();
    }

    private static RunManifest.Lane lane(SplittableRandom r, int n, boolean optional) {
        List<DepthSample> depth = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long start = r.nextLong(1L << 40);
            int min = r.nextInt(64);
            int last = min + r.nextInt(64);
            depth.add(new DepthSample(start, start + r.nextLong(1L << 20), min, last + r.nextInt(64), last));
        }
        List<RunManifest.Window> windows = List.of(new RunManifest.Window(r.nextLong(), Long.MAX_VALUE));
        Map<String, Long> causes = new LinkedHashMap<>();
        causes.put("pop_gate", r.nextLong(1000));
        causes.put("degraded", Long.MIN_VALUE);
        return new RunManifest.Lane(n, "swimlane.core-task", "core", n, r.nextLong(), 7, optional ? causes : Map.of(),
                0, 1, new RunManifest.Stalls(1, 2, 3, optional ? windows : List.of(), 4), -1,
                optional ? 123L : null, optional ? 0L : null,
                optional ? new RunManifest.Drops(2, List.of(new DropWindow(5, 9, 3))) : null,
                optional ? depth : null);
    }

    private static RunManifest manifest(boolean optional) {
        SplittableRandom r = new SplittableRandom(12);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("level", 1);
        details.put("arena_bytes_per_lane", 1L << 33);
        details.put("events", List.of("jvm/alloc-bytes/", "task-clock"));
        details.put("nothing", null);
        details.put("ratio", 0.1 + 0.2);
        details.put("nested", Map.of("windows", List.of(new RunManifest.Window(1, 2)), "depth",
                List.of(new DepthSample(3, 4, 0, 2, 1)), "drops", List.of(new DropWindow(5, 6, 7))));
        RunManifest.PoolWatermark pool = new RunManifest.PoolWatermark("deps.submit", 0, 4, optional ? 8 : null,
                optional ? new RunManifest.Flow(64, 1.0e-7, 60, 1500, 90000, 12, 1_000_000_000L, 3) : null);
        RunManifest.Queue queue = new RunManifest.Queue("orchestrator", 0, 256, 12,
                optional ? List.of(new DepthSample(1, 2, 3, 5, 4)) : null);
        RunManifest.SubsystemReport swimlane = new RunManifest.SubsystemReport("swimlane", 10, 9, 1,
                Map.of("pop_gate", 1L), 0, true, 0, new RunManifest.Stalls(0, 0, 0, List.of(), 0),
                Double.MAX_VALUE, List.of(lane(r, 3, optional), lane(r, 0, optional)), List.of(pool), List.of(queue),
                List.of("lane 2: \"quoted\"\ttab\nnewline \u00e9\u4e2d\u0001"), 1, details);
        RunManifest.SubsystemReport empty = new RunManifest.SubsystemReport("deps", 0, 0, 0, Map.of(), 0, false, 0,
                new RunManifest.Stalls(0, 0, 0, List.of(), 0), Double.NaN, List.of(), List.of(), List.of(), List.of(),
                0, Map.of());
        RunManifest.Config config = new RunManifest.Config("flood", List.of("swimlane", "deps"), 4, 1, "block",
                30_000_000_000L, 100_000, 1, 2, 4096, List.of(), List.of(new RunManifest.Pool("deps.submit", 4, 1024,
                4672, 1)));
        ProgramReport program = new ProgramReport(List.of("java", "-cp", "a b"), 100, optional ? 0 : null,
                optional ? "exited with status 0" : null, 5, "region", optional ? "strings.json" : null,
                optional ? new ProgramReport.Tsc(1, 2, 3, 4, 5, 6, 2.9e9) : null, 0,
                List.of(new ProgramReport.Producer(100, optional ? "java" : null, "exited", 3, 3, 0,
                        List.of(new ProgramReport.ThreadLane(101, "main", 0, "ended", optional ? "why" : null)))));
        Map<String, String> functions = new LinkedHashMap<>();
        functions.put("0x1", "axpb");
        functions.put("0x2", "reduce");
        return new RunManifest(RunManifest.FORMAT, RunManifest.VERSION, optional ? "00ff" : null, "ok",
                optional ? "a reason" : null, List.of("dfx", "record"), config,
                RunManifest.Clock.nanoTime(41_389_146_137_499L, RunManifest.Clock.EPOCH_UNKNOWN),
                new RunManifest.Host("vm", "Linux", "amd64", 2, 8L << 30, "25"), "2026-12-03T09:00:00Z",
                optional ? "2026-12-03T09:00:01Z" : null, 1_234_567, new RunManifest.Workload("flood", 65536, 99,
                "ok"), functions, List.of(swimlane, empty),
                List.of(new OutputFile("trace.json", true, 3, null), new OutputFile("deps.json", false, 0, "refused")
                        .sealed(12, "0a0b0c0d")), optional ? program : null);
    }

    @Test
    void theBytesAreTheObjectMappersForEveryRecordTypeWithOptionalFieldsSetAndNull() throws IOException {
        for (boolean optional : new boolean[] {true, false}) {
            RunManifest m = manifest(optional);
            assertThat(new String(written(m), StandardCharsets.UTF_8))
                    .isEqualTo(new String(MAPPER.writeValueAsBytes(m), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aManifestWrittenToARunDirectoryReadsBackEqual() throws IOException {
        RunManifest m = manifest(true);
        ManifestFile.write(tmp, m);
        assertThat(Files.readAllBytes(ManifestFile.of(tmp))).isEqualTo(MAPPER.writeValueAsBytes(m));
        RunManifest back = ManifestFile.read(tmp);
        assertThat(back.subsystems().getFirst().lanes()).isEqualTo(m.subsystems().getFirst().lanes());
        assertThat(back.program()).isEqualTo(m.program());
        assertThat(back.config()).isEqualTo(m.config());
    }

    @Test
    void aDetailOfATypeWithoutAFormIsRefusedNamingIt() {
        RunManifest m = manifest(false);
        RunManifest.SubsystemReport s = m.subsystems().getFirst();
        RunManifest bad = new RunManifest(m.format(), m.version(), m.runId(), m.status(), m.reason(), m.commandLine(),
                m.config(), m.clock(), m.host(), m.start(), m.end(), m.wallNs(), m.workload(), m.functions(),
                List.of(new RunManifest.SubsystemReport(s.name(), s.total(), s.collected(), s.dropped(),
                        s.droppedByCause(), s.silentLoss(), s.reconciled(), s.backstopExpiries(), s.stalls(),
                        s.recordsPerSecond(), s.lanes(), s.pools(), s.queues(), s.errors(), s.errorCount(),
                        Map.of("when", new Object()))), m.outputs(), m.program());
        assertThatThrownBy(() -> written(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Object");
    }
}
