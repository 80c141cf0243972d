package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkWriter;
import dev.dfx.chunk.RunId;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.Subsystem;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunk files that are not the run's own: report, script, dump and export read only the chunk
 * files run.json lists, each naming the run's id in its header; a file of another run (a second recording of the same
 * workload, which nothing but the run id tells apart), an unlisted file, a lane the run does not have, and records
 * outside the run's time range (a hand-edited clock.origin_ns) are each one {@code dfx:} line and exit 1, and the
 * output holds exactly what belongs to the run. Export never fails with an internal error on them.
 */
@Timeout(120)
class ForeignChunksTest extends OneRecordedRun {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path other;

    @TempDir
    Path tmp;

    @BeforeAll
    static void recordAnother() {
        other = shared.resolve("other");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", other.toString(), "--quiet");
        assertThat(r.status()).as(r.err()).isZero();
    }

    private Path copy(Path from, String name) throws IOException {
        Path dir = tmp.resolve(name);
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, dir.resolve(from.relativize(p).toString()));
            }
        }
        return dir;
    }

    private static String runId(Path dir) throws IOException {
        return JSON.readTree(dir.resolve("run.json").toFile()).get("run_id").asText();
    }

    private static List<String> lines(CliRun r) {
        return r.err().lines().toList();
    }

    /**
     * Report, script and dump each exit 1 with exactly {@code expectedLines}; script (and dump, when
     * {@code sameDump}: the run's own files are as recorded) prints what it prints for {@code intact}.
     */
    private static void assertEveryCommand(Path dir, Path intact, List<String> expectedLines, boolean sameDump) {
        for (String cmd : List.of("report", "script", "dump")) {
            CliRun damaged = CliRun.dfx(cmd, dir.toString());
            assertThat(damaged.status()).as(cmd).isEqualTo(1);
            assertThat(lines(damaged)).as(cmd).containsExactlyElementsOf(expectedLines);
            if (cmd.equals("script") || cmd.equals("dump") && sameDump) {
                assertThat(damaged.out()).as(cmd + ": what belongs to the run, as an intact copy lists it")
                        .isEqualTo(CliRun.dfx(cmd, intact.toString()).out().replace(intact.toString(), dir.toString()));
            }
        }
    }

    @Test
    void recordWritesTheRunIdInRunJsonAndInEveryChunkFile() throws IOException {
        String id = runId(run);
        assertThat(id).matches("[0-9a-f]{32}").isNotEqualTo(runId(other));
        try (Stream<Path> s = Files.list(run.resolve("chunks"))) {
            for (Path f : s.toList()) {
                try (ChunkReader r = ChunkReader.open(f)) {
                    assertThat(r.formatVersion()).isEqualTo(3);
                    assertThat(r.runId()).as(f.toString()).contains(RunId.parse(id));
                }
            }
        }
    }

    @Test
    void unlistedChunkFilesAreNamedAndNotRead() throws IOException {
        Path intact = copy(run, "intact");
        Path dir = copy(run, "extra");
        Files.copy(run.resolve("chunks/pmu.dfx"), dir.resolve("chunks/pmu2.dfx"));
        Files.copy(other.resolve("chunks/deps.dfx"), dir.resolve("chunks/deps-other.dfx"));
        String listed = "(run.json lists swimlane, args, pmu, scopes, deps); skipped the whole file";
        List<String> expected = List.of(
                "dfx: " + dir.resolve("chunks/deps-other.dfx") + ": not a chunk file of this run " + listed,
                "dfx: " + dir.resolve("chunks/pmu2.dfx") + ": not a chunk file of this run " + listed);
        assertEveryCommand(dir, intact, expected, true);

        CliRun export = CliRun.dfx("export", dir.toString(), "-o", tmp.resolve("t.json").toString());
        assertThat(export.status()).isEqualTo(1);
        assertThat(lines(export)).containsExactlyElementsOf(expected);
        assertThat(tmp.resolve("t.json")).hasSameBinaryContentAs(run.resolve("trace.json"));
    }

    @Test
    void aChunkFileOfAnotherRecordingIsSkippedWholeByItsRunId() throws IOException {
        Path intact = copy(run, "intact");
        Files.delete(intact.resolve("chunks/swimlane.dfx"));
        Path dir = copy(run, "swapped");
        Files.copy(other.resolve("chunks/swimlane.dfx"), dir.resolve("chunks/swimlane.dfx"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String line = "dfx: " + dir.resolve("chunks/swimlane.dfx") + ": it belongs to another run (run id "
                + runId(other) + " in its header, run.json says " + runId(run) + "); skipped the whole file";
        for (String cmd : List.of("report", "script", "dump")) {
            CliRun r = CliRun.dfx(cmd, dir.toString());
            assertThat(r.status()).as(cmd).isEqualTo(1);
            assertThat(lines(r)).as(cmd).containsExactly(line);
        }
        assertThat(CliRun.dfx("script", dir.toString()).out()).doesNotContain("swimlane:")
                .isEqualTo(CliRun.dfx("script", intact.toString()).out());

        CliRun export = CliRun.dfx("export", dir.toString(), "-o", tmp.resolve("t.json").toString());
        assertThat(export.status()).as(export.err()).isEqualTo(1);
        assertThat(lines(export)).containsExactly(line);
        JsonNode trace = JSON.readTree(tmp.resolve("t.json").toFile());
        assertThat(trace.get("traceEvents").findValuesAsText("cat")).doesNotContain("task");
    }

    @Test
    void aLaneTheRunDoesNotHaveIsSkippedWithOneLine() throws IOException {
        Path intact = copy(run, "intact");
        Path dir = copy(run, "lane");
        Path swimlane = dir.resolve("chunks/swimlane.dfx");
        Files.delete(swimlane);
        int coreTask = Subsystem.SWIMLANE.kinds().indexOf(CoreTaskRecord.KIND);
        // the run's own chunks, then one core-task chunk of core 7 (decoder runs on cores 0 and 1), same run id
        try (ChunkReader r = ChunkReader.open(run.resolve("chunks/swimlane.dfx"));
             ChunkWriter w = ChunkWriter.create(swimlane, RunId.parse(runId(run)), "swimlane", r.kinds())) {
            ChunkInfo first = null;
            for (ChunkInfo c : r.chunks()) {
                w.append(c.kind(), c.lane(), c.seq(), r.records(c), c.recordCount());
                first = first == null && c.kind() == coreTask ? c : first;
            }
            MemorySegment one = r.records(first).asSlice(0, CoreTaskRecord.SIZE);
            w.append(coreTask, 7, 0, one, 1);
        }
        assertEveryCommand(dir, intact, List.of("dfx: " + swimlane + ": lane 7 of kind core-task (1 chunk, 1"
                + " record) is not a lane of this run (run.json reports lanes 0, 1); skipped"), false);
        // dump shows the file's own index (which lists lane 7's chunk), but no chunk of lane 7
        assertThat(CliRun.dfx("dump", dir.toString()).out()).contains("(core-task)  lane: 1  ")
                .doesNotContain("(core-task)  lane: 7  ");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"origin moved later", "wall_ns cut short"})
    void recordsOutsideTheRunsTimeRangeAreSkippedAndCountedNotAnInternalError(String edit) throws IOException {
        Path dir = copy(run, "clock");
        ObjectNode m = (ObjectNode) JSON.readTree(dir.resolve("run.json").toFile());
        ObjectNode clock = (ObjectNode) m.get("clock");
        long origin = clock.get("origin_ns").asLong();
        long end = origin + m.get("wall_ns").asLong();
        long mid; // halfway through the core tasks: a time some swimlane chunks start before and end after
        try (ChunkReader r = ChunkReader.open(run.resolve("chunks/swimlane.dfx"))) {
            int coreTask = Subsystem.SWIMLANE.kinds().indexOf(CoreTaskRecord.KIND);
            List<ChunkInfo> tasks = r.chunks().stream().filter(c -> c.kind() == coreTask).toList();
            mid = (tasks.stream().mapToLong(ChunkInfo::firstTimestamp).min().orElseThrow()
                    + tasks.stream().mapToLong(ChunkInfo::lastTimestamp).max().orElseThrow()) / 2;
        }
        if (edit.startsWith("origin")) {
            clock.put("origin_ns", mid);
            m.put("wall_ns", end - mid); // the same end: only the start moved
        } else {
            m.put("wall_ns", mid - origin);
        }
        JSON.writeValue(dir.resolve("run.json").toFile(), m);
        for (String format : List.of("chrome", "perfetto")) {
            Path out = tmp.resolve("t." + format);
            CliRun export = CliRun.dfx("export", dir.toString(), "-f", format, "-o", out.toString());
            assertThat(export.status()).as(export.err()).isEqualTo(1);
            assertThat(export.err()).doesNotContain("internal error")
                    .contains("lie outside the run's time range");
            assertThat(lines(export)).allSatisfy(l -> assertThat(l).startsWith("dfx: " + dir));
            assertThat(out).isNotEmptyFile();
        }
        JsonNode trace = JSON.readTree(tmp.resolve("t.chrome").toFile());
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.has("ts")) {
                assertThat(e.get("ts").asDouble()).as(e.toString()).isGreaterThanOrEqualTo(0);
            }
        }
        CliRun script = CliRun.dfx("script", dir.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.err()).contains(dir.resolve("chunks/swimlane.dfx") + ": ")
                .contains(" lie outside the run's time range ");
    }
}
