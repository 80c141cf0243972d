package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One policy for every command that reads a run directory (export, report, script, dump): use everything that is
 * readable, print one {@code dfx:} line per damage on stderr (file, byte offset, what was skipped), still produce the
 * output, and exit 1. Each case damages a copy of one recorded run; the expected bars come from reading the damaged
 * chunk file directly.
 */
@Timeout(120)
class DamagedRunTest extends OneRecordedRun {
    private static final int TASKS = 288;

    @TempDir
    Path tmp;

    private Path copy() throws IOException {
        Path dir = tmp.resolve("copy");
        try (Stream<Path> s = Files.walk(run)) {
            for (Path p : s.toList()) {
                Files.copy(p, dir.resolve(run.relativize(p).toString()));
            }
        }
        return dir;
    }

    private CliRun export(Path dir) throws IOException {
        CliRun r = CliRun.dfx("export", dir.toString(), "-o", tmp.resolve("trace.json").toString());
        assertThat(tmp.resolve("trace.json")).as("the trace is written anyway").exists();
        return r;
    }

    private JsonNode trace() throws IOException {
        return RecordCommandTest.trace(tmp);
    }

    private static long coreTasks(Path chunkFile) throws IOException {
        try (ChunkReader r = ChunkReader.open(chunkFile)) {
            return ChunkRecords.forEach(r, CoreTaskRecord.KIND, (lane, seg, off) -> { });
        }
    }

    /** Deletes every chunk file of {@code dir}, keeping chunks/ itself. */
    private static void emptyChunks(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("chunks"))) {
            for (Path p : s.toList()) {
                Files.delete(p);
            }
        }
    }

    private static List<String> lines(CliRun r) {
        return r.err().lines().toList();
    }

    /** @return the core-task chunks of a swimlane chunk file, in file order */
    private static List<ChunkInfo> coreTaskChunks(Path swimlane) throws IOException {
        int coreTask = Subsystem.SWIMLANE.kinds().indexOf(CoreTaskRecord.KIND);
        try (ChunkReader r = ChunkReader.open(swimlane)) {
            return r.chunks().stream().filter(c -> c.kind() == coreTask).toList();
        }
    }

    @Test
    void aChunkFileCutShortGivesItsCompleteChunksAndOneLine() throws IOException {
        Path dir = copy();
        Path swimlane = dir.resolve("chunks/swimlane.dfx");
        ChunkInfo last = coreTaskChunks(swimlane).getLast();
        try (RandomAccessFile f = new RandomAccessFile(swimlane.toFile(), "rw")) {
            f.setLength(last.payloadOffset() + 10); // inside the last core-task chunk
        }
        long readable = coreTasks(swimlane); // the strict reader keeps the chunks before the cut
        assertThat(readable).isEqualTo(TASKS - last.recordCount());
        CliRun r = export(dir);
        assertThat(r.status()).isEqualTo(1);
        assertThat(lines(r)).singleElement().asString().startsWith("dfx: " + swimlane + ": no chunk index")
                .contains("stopped at byte offset ", "; skipped the last ", " bytes; holds ");
        assertThat(RecordCommandTest.events(trace(), "X", "task")).hasSize((int) readable);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void auditNamesADamagedChunkFileAsReportDoesAfterItsAudit(int thirds) throws IOException {
        Path dir = copy();
        Path swimlane = dir.resolve("chunks/swimlane.dfx");
        try (RandomAccessFile f = new RandomAccessFile(swimlane.toFile(), "rw")) {
            f.setLength(f.length() * thirds / 3); // empty, or cut at 2/3
        }
        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(lines(report)).singleElement().asString().startsWith("dfx: " + swimlane + ": ")
                .contains("byte offset " + (thirds == 0 ? "0: " : ""));
        CliRun intact = CliRun.dfx("audit", run.toString());
        assertThat(intact.status()).as(intact.err()).isZero();
        assertThat(intact.err()).isEmpty();
        CliRun audit = CliRun.dfx("audit", dir.toString());
        assertThat(audit.status()).isEqualTo(1);
        assertThat(lines(audit)).as("the line report prints").isEqualTo(lines(report));
        assertThat(audit.out()).as("the audit comes from run.json, which is intact")
                .isEqualTo(intact.out().replace(run.toString(), dir.toString()));
    }

    @Test
    void aFileCutBetweenChunksIsFoundByItsRecordCount() throws IOException {
        Path dir = copy();
        Path swimlane = dir.resolve("chunks/swimlane.dfx");
        long total;
        long kept;
        try (ChunkReader r = ChunkReader.open(swimlane)) {
            total = r.recordCount();
            ChunkInfo last = r.chunks().getLast();
            kept = total - last.recordCount();
            try (RandomAccessFile f = new RandomAccessFile(swimlane.toFile(), "rw")) {
                f.setLength(last.offset()); // nothing torn: the scan ends cleanly, one chunk short
            }
        }
        CliRun r = CliRun.dfx("report", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(lines(r)).containsExactly("dfx: " + swimlane + ": holds " + kept + " of the " + total
                + " records run.json counts as collected");
    }

    @Test
    void aFlippedByteCostsOneChunkAndEveryCommandSaysSo() throws IOException {
        Path dir = copy();
        Path swimlane = dir.resolve("chunks/swimlane.dfx");
        // the smallest: when the workers shared the tasks, the other lanes' tasks keep arrows between them
        List<ChunkInfo> chunks = coreTaskChunks(swimlane);
        ChunkInfo victim = chunks.stream().min(Comparator.comparingInt(ChunkInfo::recordCount)).orElseThrow();
        byte[] b = Files.readAllBytes(swimlane);
        b[(int) victim.payloadOffset() + 5] ^= 0x40;
        Files.write(swimlane, b);
        String line = "dfx: " + swimlane + ": byte offset " + victim.payloadOffset()
                + ": chunk payload checksum mismatch";

        CliRun export = export(dir);
        assertThat(export.status()).isEqualTo(1);
        assertThat(lines(export)).singleElement().asString().startsWith(line)
                .endsWith("; skipped the chunk's " + victim.recordCount() + " records");
        assertThat(RecordCommandTest.events(trace(), "X", "task")).hasSize(TASKS - victim.recordCount());
        if (chunks.size() > 1) {
            assertThat(RecordCommandTest.events(trace(), "s", "task")).as("deps intact: arrows drawn").isNotEmpty();
        } else { // one worker ran every task: no bar is left to draw an arrow from
            assertThat(RecordCommandTest.events(trace(), "s", "task")).isEmpty();
        }

        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(report.out()).contains("status ok");
        assertThat(lines(report)).singleElement().asString().startsWith(line);

        CliRun script = CliRun.dfx("script", dir.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.out().lines().filter(l -> l.contains("swimlane:core-task:")).count())
                .isEqualTo(TASKS - victim.recordCount());
        assertThat(lines(script)).singleElement().asString().startsWith(line);

        CliRun dump = CliRun.dfx("dump", dir.toString());
        assertThat(dump.status()).isEqualTo(1);
        assertThat(dump.out()).contains("DFX_CHUNK kind: ");
        assertThat(lines(dump)).singleElement().asString().startsWith(line);
    }

    @Test
    void aMissingDepsFileLosesTheArrowsAndSaysSo() throws IOException {
        Path dir = copy();
        Files.delete(dir.resolve("chunks/deps.dfx"));
        CliRun r = export(dir);
        assertThat(r.status()).isEqualTo(1);
        assertThat(lines(r)).containsExactly("dfx: " + dir.resolve("chunks/deps.dfx")
                + ": missing; run.json lists the deps subsystem with " + TASKS + " records collected",
                "dfx: " + dir.resolve("chunks/deps.dfx") + ": dependency arrows: none drawn (no submit record could"
                        + " be read; the arrows of all " + TASKS + " submits are lost)");
        JsonNode trace = trace();
        assertThat(RecordCommandTest.events(trace, "X", "task")).hasSize(TASKS);
        assertThat(RecordCommandTest.events(trace, "s", "task")).isEmpty();
        assertThat(trace.get("metadata").get("dependency_arrows").asText())
                .isEqualTo("none: chunks/deps.dfx is missing or unreadable");
        assertThat(CliRun.dfx("dump", dir.toString()).status()).isEqualTo(1);
    }

    /** A file where the chunks folder should be: one line for the folder, not a "missing" line per chunk file. */
    @Test
    void aChunksFileInsteadOfItsFolderIsNamedOnce() throws IOException {
        Path dir = copy();
        emptyChunks(dir);
        Files.delete(dir.resolve("chunks"));
        Files.writeString(dir.resolve("chunks"), "not a folder");
        CliRun r = CliRun.dfx("report", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(lines(r)).contains("dfx: " + dir.resolve("chunks") + ": not a directory; no chunk file could be read")
                .noneMatch(l -> l.contains(": missing"));
    }

    @Test
    void noChunkFilesAtAllIsALinePerSubsystem() throws IOException {
        Path dir = copy();
        emptyChunks(dir);
        CliRun r = export(dir);
        assertThat(r.status()).isEqualTo(1);
        assertThat(lines(r)).hasSize(6).allSatisfy(l -> assertThat(l).startsWith("dfx: " + dir.resolve("chunks")));
        assertThat(lines(r).subList(0, 5)).allSatisfy(l -> assertThat(l).contains(": missing; run.json lists the "));
        assertThat(lines(r).getLast()).isEqualTo("dfx: " + dir.resolve("chunks/deps.dfx") + ": dependency arrows:"
                + " none drawn (no submit record could be read; the arrows of all " + TASKS + " submits are lost)");
        assertThat(RecordCommandTest.events(trace(), "X", "task")).isEmpty();
        CliRun script = CliRun.dfx("script", dir.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.out()).isEmpty();
        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(lines(report)).as("one line per missing file, and no arrows to lose")
                .isEqualTo(lines(r).subList(0, 5));
    }

    @Test
    void aRowOfRunJsonThatDoesNotAddUpIsNamed() throws IOException {
        Path dir = copy();
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = (ObjectNode) json.readTree(dir.resolve("run.json").toFile());
        ObjectNode swimlane = (ObjectNode) m.get("subsystems").get(0);
        long total = swimlane.get("total").asLong();
        swimlane.put("collected", 1000);
        json.writeValue(dir.resolve("run.json").toFile(), m);
        CliRun r = CliRun.dfx("report", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(lines(r)).containsExactly(
                "dfx: " + dir.resolve("chunks/swimlane.dfx") + ": holds " + total + " records, more than the 1000"
                        + " run.json counts as collected",
                "dfx: " + dir.resolve("run.json") + ": subsystems[0] (swimlane): total " + total + " is not collected"
                        + " 1000 + dropped 0 + silent_loss 0");
        swimlane.put("collected", -5);
        json.writeValue(dir.resolve("run.json").toFile(), m);
        assertThat(lines(CliRun.dfx("report", dir.toString()))).last().isEqualTo("dfx: " + dir.resolve("run.json")
                + ": subsystems[0] (swimlane): a negative count (total " + total + ", collected -5, dropped 0,"
                + " silent_loss 0)");
    }

    @Test
    void aRunStillBeingRecordedIsNotReported() throws IOException {
        Path dir = copy();
        ObjectNode m = (ObjectNode) new ObjectMapper().readTree(dir.resolve("run.json").toFile());
        m.put("status", "running");
        new ObjectMapper().writeValue(dir.resolve("run.json").toFile(), m);
        long self = ProcessHandle.current().pid();
        Files.writeString(dir.resolve(".dfx-record.lock"), self + "\n");
        CliRun r = CliRun.dfx("report", dir.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        String line = "dfx: " + dir + ": still being recorded by dfx record (pid " + self + "); run this command"
                + " again when it has ended" + System.lineSeparator();
        assertThat(r.err()).isEqualTo(line);
        for (String[] cmd : List.of(new String[] {"script", dir.toString()}, new String[] {"dump", dir.toString()},
                new String[] {"audit", dir.toString()}, new String[] {"audit", run.toString(), dir.toString()},
                new String[] {"export", dir.toString(), "-o", tmp.resolve("t.json").toString()})) {
            CliRun c = CliRun.dfx(cmd);
            assertThat(c.status()).as(cmd[0]).isEqualTo(1);
            assertThat(c.out()).as(cmd[0]).isEmpty();
            assertThat(c.err()).as(cmd[0]).isEqualTo(line);
        }
    }

    /**
     * A recorder killed after its first run.json (a second Ctrl-C, SIGKILL) leaves that manifest: status running, no
     * counts, no outputs; with SIGKILL the chunk files also lack their index. Every command names it in the same
     * line, exits 1 and draws its output from the chunk files, deps arrows included; the trace claims no loss count.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aRunThatDidNotFinishIsTheSameLineForEveryCommand(boolean cutIndexes) throws Exception {
        Path dir = copy();
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = (ObjectNode) json.readTree(dir.resolve("run.json").toFile());
        m.put("status", "running");
        m.putNull("end");
        m.put("wall_ns", 0);
        m.putArray("subsystems");
        m.putArray("outputs");
        json.writeValue(dir.resolve("run.json").toFile(), m);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(dir.resolve(".dfx-record.lock"), gone.pid() + "\n");
        List<String> held = new ArrayList<>();
        long records = 0;
        try (Stream<Path> files = Files.list(dir.resolve("chunks"))) {
            for (Path f : files.sorted().toList()) {
                try (ChunkReader r = ChunkReader.open(f)) {
                    // a file of this run holds one chunk or several, and always more than one record
                    int chunks = r.chunks().size();
                    held.add(r.subsystem() + " " + chunks + (chunks == 1 ? " chunk " : " chunks ") + r.recordCount()
                            + " records");
                    records += r.recordCount();
                    if (cutIndexes) {
                        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                            raf.setLength(r.chunks().getLast().end());
                        }
                    }
                }
            }
        }
        String line = "dfx: " + dir + ": the recording did not finish (run.json still says running; its recorder, pid "
                + gone.pid() + ", is gone); recoverable from the chunk files: " + String.join(", ", held)
                + " (dfx script and dfx dump list them)";

        // report and audit have no counts to read: they show what the chunk files hold, lane by lane
        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(lines(report)).containsExactly(line);
        List<String> table = report.out().lines().toList();
        assertThat(table.getFirst()).isEqualTo("dfx run " + dir + ": " + m.at("/workload/name").asText()
                + ", status running (the recording did not finish: drops, stalls and watermarks are unknown)");
        assertThat(table.stream().filter(l -> l.matches("swimlane +core-task +\\d+ +\\d+ +\\d+ *"))
                .mapToLong(l -> Long.parseLong(l.strip().split(" +")[4])).sum()).as(report.out()).isEqualTo(TASKS);
        assertThat(table.getLast()).matches("all +\\d+ +" + records);
        CliRun reportJson = CliRun.dfx("report", "--json", dir.toString());
        assertThat(reportJson.status()).isEqualTo(1);
        assertThat(lines(reportJson)).containsExactly(line);
        assertThat(coreTaskRecords(json.readTree(reportJson.out()))).isEqualTo(TASKS);
        CliRun script = CliRun.dfx("script", dir.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(lines(script)).containsExactly(line);
        assertThat(script.out().lines().filter(l -> l.contains("swimlane:core-task:")).count()).isEqualTo(TASKS);
        CliRun dump = CliRun.dfx("dump", dir.toString());
        assertThat(dump.status()).isEqualTo(1);
        assertThat(lines(dump)).containsExactly(line);
        assertThat(dump.out()).contains("DFX_CHUNK kind: ");
        CliRun audit = CliRun.dfx("audit", dir.toString());
        assertThat(audit.status()).isEqualTo(1);
        assertThat(audit.out()).as("no counts to audit: what the chunk files hold, as report shows it")
                .isEqualTo(report.out());
        assertThat(lines(audit)).containsExactly(line);
        CliRun both = CliRun.dfx("audit", "--json", run.toString(), dir.toString());
        assertThat(both.status()).isEqualTo(1);
        assertThat(lines(both)).containsExactly(line);
        JsonNode audited = json.readTree(both.out());
        assertThat(audited.get("runs")).as("the finished run is audited").hasSize(1);
        assertThat(audited.get("unfinished")).hasSize(1);
        assertThat(coreTaskRecords(audited.at("/unfinished/0"))).isEqualTo(TASKS);

        CliRun export = export(dir);
        assertThat(export.status()).isEqualTo(1);
        assertThat(lines(export)).containsExactly(line);
        JsonNode trace = trace();
        int arrows = RecordCommandTest.events(RecordCommandTest.trace(run), "s", "task").size();
        assertThat(arrows).as("the finished run's arrows").isPositive();
        assertThat(RecordCommandTest.events(trace, "X", "task")).hasSize(TASKS);
        assertThat(RecordCommandTest.events(trace, "s", "task")).hasSize(arrows);
        JsonNode meta = trace.get("metadata");
        assertThat(meta.get("dependency_arrows").asText()).isEqualTo(arrows + " arrows from deps on disk (the"
                + " recording did not finish: later submits are missing)");
        for (String key : List.of("records_dropped", "stalls", "subsystems")) {
            assertThat(meta.get(key).asText()).as(key).isEqualTo("unknown: the recording did not finish");
        }
    }

    /** @return the core-task records of {@code dfx report --json}'s rows of a run that did not finish */
    private static long coreTaskRecords(JsonNode held) {
        long n = 0;
        for (JsonNode row : held.get("chunk_files")) {
            if (row.get("subsystem").asText().equals("swimlane") && row.get("kind").asText().equals("core-task")) {
                n += row.get("records").asLong();
            }
        }
        return n;
    }

    @Test
    void aRunWithoutRunJsonIsListedAndExportedWithOneLine() throws IOException {
        Path dir = copy();
        Files.delete(dir.resolve("run.json"));
        String line = "dfx: " + dir + ": not a run directory (no run.json); listed the chunk files without it";
        for (String cmd : List.of("script", "dump")) {
            CliRun r = CliRun.dfx(cmd, dir.toString());
            assertThat(r.status()).as(cmd).isEqualTo(1);
            assertThat(lines(r)).as(cmd).containsExactly(line);
            assertThat(r.out()).as(cmd).contains("swimlane:core-task");
        }
        Path out = tmp.resolve("t.json");
        CliRun export = CliRun.dfx("export", dir.toString(), "-o", out.toString());
        assertThat(export.status()).isEqualTo(1);
        assertThat(lines(export)).containsExactly("dfx: " + dir + ": not a run directory (no run.json); drew the trace"
                + " from the chunk files alone (clock origin at the earliest record; no function names, stall or drop"
                + " marks or dependency arrows)");
        Files.move(out, tmp.resolve("trace.json"));
        assertThat(RecordCommandTest.events(trace(), "X", "task")).hasSize(TASKS);
    }

    @Test
    void aManifestMissingAFieldIsOneLineForReportAndExport() throws IOException {
        Path dir = copy();
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = (ObjectNode) json.readTree(dir.resolve("run.json").toFile());
        ((ObjectNode) m.get("subsystems").get(0)).remove("lanes");
        json.writeValue(dir.resolve("run.json").toFile(), m);
        String line = "dfx: " + dir.resolve("run.json") + ": field subsystems[0].lanes is missing; expected a dfx-run"
                + " manifest, version 1";
        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(report.err()).isEqualTo(line + System.lineSeparator());
        CliRun export = CliRun.dfx("export", dir.toString(), "-o", tmp.resolve("t.json").toString());
        assertThat(export.status()).isEqualTo(1);
        assertThat(export.err()).isEqualTo(line + "; drew the trace from the chunk files alone (clock origin at the"
                + " earliest record; no function names, stall or drop marks or dependency arrows)"
                + System.lineSeparator());
    }

    /**
     * Export of a run whose run.json is not JSON draws the bars from the chunk files alone, with the earliest
     * record as the origin, and claims no counts; run.json's error is the one line, exit 1.
     */
    @Test
    void anUnreadableManifestStillExportsTheBarsFromTheChunkFiles() throws IOException {
        Path dir = copy();
        Files.writeString(dir.resolve("run.json"), "not json {\n");
        for (String format : List.of("chrome", "perfetto", "html")) {
            Path out = tmp.resolve("t." + format);
            CliRun r = CliRun.dfx("export", dir.toString(), "-f", format, "-o", out.toString());
            assertThat(r.status()).as(format).isEqualTo(1);
            assertThat(lines(r)).as(format).singleElement().asString()
                    .startsWith("dfx: " + dir.resolve("run.json") + ": line 1, column 5: not valid JSON (found 'not',"
                            + " expected a JSON value)")
                    .endsWith("; drew the trace from the chunk files alone (clock origin at the earliest record; no"
                            + " function names, stall or drop marks or dependency arrows)");
            assertThat(out).isNotEmptyFile();
        }
        Files.move(tmp.resolve("t.chrome"), tmp.resolve("trace.json"));
        JsonNode trace = trace(); // passes the trace-event checks
        assertThat(RecordCommandTest.events(trace, "X", "task")).hasSize(TASKS);
        assertThat(RecordCommandTest.events(trace, "s", "task")).isEmpty();
        long earliest = Long.MAX_VALUE;
        try (Stream<Path> files = Files.list(dir.resolve("chunks"))) {
            for (Path f : files.toList()) {
                try (ChunkReader r = ChunkReader.open(f)) {
                    for (ChunkInfo c : r.chunks()) {
                        if (r.kind(c.kind()).hasTimestamp() && c.recordCount() > 0) {
                            earliest = Math.min(earliest, c.firstTimestamp());
                        }
                    }
                }
            }
        }
        JsonNode meta = trace.get("metadata");
        assertThat(meta.get("origin_ns").asLong()).isEqualTo(earliest);
        assertThat(meta.get("records_dropped").asText()).isEqualTo("unknown: run.json is unreadable");
        assertThat(CliRun.dfx("export", dir.toString(), "-o", dir.resolve("trace.json").toString()).err())
                .as("the recorded trace is kept").contains("is the run's recorded trace");
    }

    @Test
    void anIntactRunExportsWithoutALine() throws IOException {
        CliRun r = export(run);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
    }

    /** run.json seals each derived output (size, CRC32); report names each one missing, cut or changed. */
    @Test
    void derivedOutputsCutOrChangedSinceTheRecordingAreNamedWithHowToRebuildThem() throws IOException {
        Path dir = copy();
        JsonNode outputs = new ObjectMapper().readTree(dir.resolve("run.json").toFile()).get("outputs");
        long traceBytes = Files.size(run.resolve("trace.json"));
        long depsBytes = Files.size(run.resolve("deps.json"));
        for (JsonNode o : outputs) {
            if (o.get("path").asText().equals("trace.json")) {
                assertThat(o.get("bytes").asLong()).isEqualTo(traceBytes);
                java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                crc.update(Files.readAllBytes(run.resolve("trace.json")));
                assertThat(o.get("crc32").asText()).isEqualTo(String.format("%08x", crc.getValue()));
            }
        }
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve("trace.json").toFile(), "rw")) {
            f.setLength(1000);
        }
        Files.writeString(dir.resolve("deps.json"), "garbage\n");
        Files.delete(dir.resolve("pmu.csv"));
        byte[] scopes = Files.readAllBytes(dir.resolve("scopes.jsonl"));
        scopes[scopes.length - 3] ^= 1; // same size, another byte
        Files.write(dir.resolve("scopes.jsonl"), scopes);

        String noRebuild = "; dfx cannot rebuild it; its records are in the chunk files (dfx script " + dir
                + " lists them)";
        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(lines(report)).hasSize(4).containsSubsequence(
                "dfx: " + dir.resolve("pmu.csv") + ": missing; run.json lists it as written" + noRebuild,
                "dfx: " + dir.resolve("deps.json") + ": 8 bytes, run.json says " + depsBytes
                        + " (cut short or changed since the recording)" + noRebuild,
                "dfx: " + dir.resolve("trace.json") + ": 1000 bytes, run.json says " + traceBytes
                        + " (cut short or changed since the recording); rebuild it with: dfx export " + dir + " -o "
                        + dir.resolve("trace.json"));
        assertThat(lines(report)).anySatisfy(l -> assertThat(l)
                .startsWith("dfx: " + dir.resolve("scopes.jsonl") + ": CRC32 ")
                .contains(" (changed since the recording)" + noRebuild));

        CliRun rebuild = CliRun.dfx("export", dir.toString(), "-o", dir.resolve("trace.json").toString());
        assertThat(rebuild.status()).as(rebuild.err()).isZero();
        assertThat(lines(CliRun.dfx("report", dir.toString()))).as("the rebuilt trace is the recorded one")
                .hasSize(3).noneMatch(l -> l.contains("trace.json"));
    }
}
