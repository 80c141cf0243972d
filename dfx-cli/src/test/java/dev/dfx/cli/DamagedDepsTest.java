package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.SubmitRecord;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A deps chunk file cut or deleted after the recording: export draws the dependency arrows of the submits in the
 * whole chunks before the cut, and says in one line after the file's own damage line what the arrows lost. Two fresh
 * recordings: {@code flood} (65,536 independent submits in 64 chunks, so no arrow at all) and {@code decoder} with
 * deps buffers of 32 records (288 submits in 9 chunks, arrows into nearly every one). What the cut leaves is found
 * without dfx's replay: the submits are read from the uncut file's chunks that end before the cut, and the arrows
 * expected are the uncut run's trace's arrows whose successor bar is one of those submits' tasks.
 */
@Timeout(600)
class DamagedDepsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DEPS = "chunks/deps.dfx";

    @TempDir
    static Path shared;
    static Map<String, Recorded> runs = new HashMap<>();

    @TempDir
    Path tmp;

    /**
     * Where a cut falls, found in the uncut file; or the file deleted, or a byte of the middle chunk's payload flipped
     * (that chunk is skipped, the chunks after it are intact, and their submits' arrows are lost all the same).
     */
    enum Cut { START, FILE_HEADER, FIRST_CHUNK, MIDDLE_RECORD, BETWEEN_CHUNKS, LAST_BYTE, DELETED, FLIPPED_BYTE }

    /**
     * A recorded run with what its uncut export draws.
     *
     * @param dir    the run directory
     * @param trace  its trace as exported uncut
     * @param chunks its deps file's submit chunks in seq order (one lane)
     * @param pred   each arrow's (flow id's) predecessor task, from the uncut trace
     * @param succ   each arrow's successor task
     */
    record Recorded(Path dir, Path trace, List<ChunkInfo> chunks, Map<Long, String> pred, Map<Long, String> succ) {
    }

    @BeforeAll
    static void record() throws IOException {
        runs.put("flood", recorded("flood"));
        // 32 submits per buffer: the decoder's 288 submits fill 9 chunks, so a cut can fall between and inside them
        runs.put("decoder", recorded("decoder", "--pool", "deps=64x32"));
    }

    private static Recorded recorded(String workload, String... options) throws IOException {
        Path dir = shared.resolve(workload);
        List<String> args = new ArrayList<>(List.of("record", "-w", workload, "-o", dir.toString(), "--quiet"));
        args.addAll(List.of(options));
        CliRun r = CliRun.dfx(args.toArray(String[]::new));
        assertThat(r.status()).as(r.err()).isZero();
        Path trace = shared.resolve(workload + ".json");
        CliRun export = CliRun.dfx("export", dir.toString(), "-o", trace.toString());
        assertThat(export.status()).as(export.err()).isZero();
        List<ChunkInfo> chunks;
        try (ChunkReader deps = ChunkReader.open(dir.resolve(DEPS))) {
            assertThat(deps.lanes()).hasSize(1);
            assertThat(deps.lanes().getFirst().gaps()).isEmpty();
            chunks = deps.lanes().getFirst().chunks();
        }
        assertThat(chunks).as("several chunks to cut between").hasSizeGreaterThan(4);
        Map<Long, String> pred = new HashMap<>();
        Map<Long, String> succ = new HashMap<>();
        // a flow event carries the pid, tid and ts of the bar it binds to, the first task bar with that tuple
        Map<String, String> bars = new HashMap<>();
        Map<Long, String> predBar = new HashMap<>();
        Map<Long, String> succBar = new HashMap<>();
        try (Events events = new Events(trace)) {
            for (JsonNode e = events.next(); e != null; e = events.next()) {
                String ph = e.get("ph").asText();
                if (ph.equals("X") && e.path("cat").asText().equals("task")) {
                    bars.putIfAbsent(key(e), e.at("/args/task_id").asText());
                } else if (ph.equals("s") || ph.equals("f")) {
                    (ph.equals("s") ? predBar : succBar).put(e.get("id").asLong(), key(e));
                }
            }
        }
        predBar.forEach((id, bar) -> pred.put(id, bars.get(bar)));
        succBar.forEach((id, bar) -> succ.put(id, bars.get(bar)));
        assertThat(pred.values()).as("every arrow leaves a task bar").doesNotContainNull();
        assertThat(succ.values()).as("every arrow ends at a task bar").doesNotContainNull();
        assertThat(pred.keySet()).isEqualTo(succ.keySet());
        return new Recorded(dir, trace, chunks, pred, succ);
    }

    private static String key(JsonNode e) {
        return e.get("pid").asText() + "/" + e.get("tid").asText() + "/" + e.get("ts").asText();
    }

    static Stream<Arguments> cuts() {
        List<Arguments> l = new ArrayList<>();
        for (String workload : List.of("flood", "decoder")) {
            for (Cut c : Cut.values()) {
                l.add(Arguments.of(workload, c));
            }
        }
        return l.stream();
    }

    /** @return the byte the file is cut at ({@code -1}: deleted; a flipped byte: the start of its chunk) */
    private static long offset(Cut cut, List<ChunkInfo> chunks, long size) {
        ChunkInfo middle = chunks.get(chunks.size() / 2);
        return switch (cut) {
            case START -> 0;
            case FILE_HEADER -> chunks.getFirst().offset() / 2;
            case FIRST_CHUNK -> chunks.getFirst().payloadOffset() + 100;
            case MIDDLE_RECORD -> middle.payloadOffset() + middle.storedLength() / 2;
            case BETWEEN_CHUNKS, FLIPPED_BYTE -> middle.offset();
            case LAST_BYTE -> size - 1;
            case DELETED -> -1;
        };
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cuts")
    void aCutDepsFileDrawsTheArrowsOfTheWholeChunksBeforeTheCutAndSaysWhatItLost(String workload, Cut cut)
            throws IOException {
        Recorded run = runs.get(workload);
        Path dir = linkedCopy(run.dir());
        Path deps = dir.resolve(DEPS);
        long size = Files.size(run.dir().resolve(DEPS));
        long at = offset(cut, run.chunks(), size);
        if (at < 0) {
            Files.delete(deps);
        } else if (cut == Cut.FLIPPED_BYTE) {
            ChunkInfo middle = run.chunks().get(run.chunks().size() / 2);
            try (RandomAccessFile f = new RandomAccessFile(deps.toFile(), "rw")) {
                f.seek(middle.payloadOffset() + 5);
                int b = f.read();
                f.seek(middle.payloadOffset() + 5);
                f.write(b ^ 0x40);
            }
        } else {
            try (RandomAccessFile f = new RandomAccessFile(deps.toFile(), "rw")) {
                f.setLength(at);
            }
        }
        // the submits the cut leaves: those of the chunks that end before it, read from the uncut file
        Set<String> kept = new HashSet<>();
        long end = 0;
        long total = 0;
        try (ChunkReader r = ChunkReader.open(run.dir().resolve(DEPS))) {
            SubmitRecord.View head = new SubmitRecord.View();
            for (ChunkInfo c : run.chunks()) {
                MemorySegment records = r.records(c);
                for (int i = 0; i < c.recordCount(); i++) {
                    head.wrap(records, (long) i * c.recordSize());
                    if ((head.flags() & SubmitRecord.OVERFLOW) == 0) {
                        total++;
                        if (c.end() <= at) {
                            kept.add(String.format("0x%016x", head.taskId()));
                        }
                    }
                }
                if (c.end() <= at) {
                    end = c.end();
                }
            }
        }
        Set<Long> keptArrows = new HashSet<>();
        run.succ().forEach((id, task) -> {
            if (kept.contains(task)) {
                keptArrows.add(id);
            }
        });
        if (workload.equals("decoder") && (cut == Cut.MIDDLE_RECORD || cut == Cut.FLIPPED_BYTE)) {
            assertThat(keptArrows).as("arrows both kept and lost").isNotEmpty().hasSizeLessThan(run.succ().size());
        }

        Path out = tmp.resolve("t.json");
        CliRun r = CliRun.dfx("export", dir.toString(), "-o", out.toString());
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        List<String> lines = r.err().lines().toList();
        String arrows = "dfx: " + deps + ": dependency arrows: ";
        String expected;
        String meta;
        if (kept.isEmpty()) {
            boolean unreadable = cut == Cut.START || cut == Cut.FILE_HEADER || cut == Cut.DELETED;
            expected = arrows + "none drawn (" + (unreadable ? "no submit record could be read"
                    : "no whole chunk of submit records before the damage") + "; the arrows of all " + total
                    + " submits are lost)";
            meta = "none: " + DEPS + (unreadable ? " is missing or unreadable"
                    : " is damaged before its first whole chunk of submits");
        } else if (kept.size() == total) {
            expected = arrows + "none lost (every one of the " + total + " submits was read; " + run.succ().size()
                    + " drawn)";
            meta = run.succ().size() + " arrows from deps";
        } else {
            expected = arrows + keptArrows.size() + " drawn, into the first " + kept.size() + " of the " + total
                    + " submits (the whole chunks before byte offset " + end + "); the arrows into the "
                    + (total - kept.size()) + " later submits are lost";
            meta = keptArrows.size() + " arrows from deps (into the first " + kept.size() + " of the " + total
                    + " submits: " + DEPS + " lost the submits from byte offset " + end + " on)";
        }
        assertThat(lines).as("the file's own line, then what the arrows lost").hasSize(2);
        assertThat(lines.getFirst()).startsWith("dfx: " + deps + ": ").doesNotStartWith(arrows);
        assertThat(lines.getLast()).isEqualTo(expected);

        // the trace is the uncut one without the arrows into the submits after the cut
        try (Events cutTrace = new Events(out); Events whole = new Events(run.trace())) {
            long events = 0;
            for (JsonNode e = cutTrace.next(); e != null; e = cutTrace.next()) {
                JsonNode w = whole.next();
                while (w != null && isFlow(w) && !keptArrows.contains(w.get("id").asLong())) {
                    w = whole.next();
                }
                assertThat(e).as("event %d", events).isEqualTo(w);
                events++;
            }
            for (JsonNode w = whole.next(); w != null; w = whole.next()) {
                assertThat(isFlow(w) && !keptArrows.contains(w.get("id").asLong())).as("left out: %s", w).isTrue();
            }
            ObjectNode cutMeta = cutTrace.metadata();
            ObjectNode wholeMeta = whole.metadata();
            assertThat(cutMeta.get("dependency_arrows").asText()).isEqualTo(meta);
            cutMeta.remove("dependency_arrows");
            wholeMeta.remove("dependency_arrows");
            assertThat(cutMeta).isEqualTo(wholeMeta);
        }
    }

    /** Perfetto and the HTML viewer draw from the same walk: the same two lines; script and report name the file. */
    @Test
    void everyFormatSaysWhatTheArrowsLostAndScriptListsTheWholeChunks() throws IOException {
        Recorded run = runs.get("decoder");
        Path dir = linkedCopy(run.dir());
        Path deps = dir.resolve(DEPS);
        ChunkInfo middle = run.chunks().get(run.chunks().size() / 2);
        try (RandomAccessFile f = new RandomAccessFile(deps.toFile(), "rw")) {
            f.setLength(middle.payloadOffset() + middle.storedLength() / 2);
        }
        CliRun chrome = CliRun.dfx("export", dir.toString(), "-o", tmp.resolve("t.json").toString());
        assertThat(chrome.status()).isEqualTo(1);
        assertThat(chrome.err().lines()).hasSize(2);
        for (String format : List.of("perfetto", "html")) {
            Path out = tmp.resolve("t." + format);
            CliRun r = CliRun.dfx("export", dir.toString(), "-f", format, "-o", out.toString());
            assertThat(r.status()).as(format).isEqualTo(1);
            assertThat(r.err()).as(format).isEqualTo(chrome.err());
            assertThat(out).isNotEmptyFile();
        }
        long whole = 0;
        for (ChunkInfo c : run.chunks()) {
            whole += c.end() <= middle.offset() ? c.recordCount() : 0;
        }
        CliRun script = CliRun.dfx("script", dir.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.out().lines().filter(l -> l.contains("deps:submit")).count()).isEqualTo(whole);
        String fileLine = chrome.err().lines().findFirst().orElseThrow();
        assertThat(script.err().lines()).containsExactly(fileLine);
        CliRun report = CliRun.dfx("report", dir.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(report.err().lines()).containsExactly(fileLine);
    }

    /** @return a copy of the run whose files are hard links, except the deps file, which is copied (to be cut) */
    private Path linkedCopy(Path run) throws IOException {
        Path dir = tmp.resolve("run");
        try (Stream<Path> s = Files.walk(run)) {
            for (Path p : s.toList()) {
                Path to = dir.resolve(run.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else if (p.endsWith(DEPS)) {
                    Files.copy(p, to);
                } else {
                    Files.createLink(to, p);
                }
            }
        }
        return dir;
    }

    private static boolean isFlow(JsonNode e) {
        String ph = e.get("ph").asText();
        return ph.equals("s") || ph.equals("f");
    }

    /** A Chrome trace's events one at a time (a flood trace is 58 MB), then its metadata. */
    private static final class Events implements AutoCloseable {
        private final JsonParser p;
        private boolean done;

        Events(Path trace) throws IOException {
            p = JSON.createParser(trace.toFile());
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(p.nextFieldName()).isEqualTo("traceEvents");
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_ARRAY);
        }

        /** @return the next event, or null after the last */
        JsonNode next() throws IOException {
            if (done) {
                return null;
            }
            if (p.nextToken() == JsonToken.END_ARRAY) {
                done = true;
                return null;
            }
            return p.readValueAsTree();
        }

        /** @return the metadata; call after the last event */
        ObjectNode metadata() throws IOException {
            assertThat(done).isTrue();
            for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
                p.nextToken();
                if (field.equals("metadata")) {
                    return p.readValueAsTree();
                }
                p.skipChildren();
            }
            throw new AssertionError("no metadata");
        }

        @Override
        public void close() throws IOException {
            p.close();
        }
    }
}
