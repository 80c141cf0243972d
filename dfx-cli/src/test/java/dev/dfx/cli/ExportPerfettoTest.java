package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.export.PerfettoTraceReader;
import dev.dfx.export.TraceContent;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code dfx export RUN --format perfetto} on one recorded run, decoded with {@link PerfettoTraceReader} and checked
 * against the run itself: the core task records (read here from the chunk file at the offsets of the record's layout
 * table), {@code dfx script}'s text of one record, deps.json's edges, and the Chrome export of the same run.
 */
@Timeout(120)
class ExportPerfettoTest extends OneRecordedRun {
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    static byte[] proto;
    static List<PerfettoTraceReader.Packet> packets;
    static List<String> problems = new ArrayList<>();
    static List<PerfettoTraceReader.Slice> slices;
    static TraceContent content;

    @BeforeAll
    static void export() throws IOException {
        Path out = shared.resolve("trace.perfetto-trace");
        CliRun r = CliRun.dfx("export", run.toString(), "--format", "perfetto", "-o", out.toString());
        assertThat(r.status()).as(r.err()).isZero();
        proto = Files.readAllBytes(out);
        try (InputStream in = Files.newInputStream(out)) {
            packets = PerfettoTraceReader.read(in);
        }
        slices = PerfettoTraceReader.slices(packets, problems);
        content = TraceContent.ofPerfetto(packets, new ArrayList<>());
    }

    /** @return the task_id text of every slice on the Cores rows with cat task, mapped to its "start end" */
    private static Map<String, List<String>> coreSlices() {
        Map<Long, PerfettoTraceReader.Track> tracks = new HashMap<>();
        packets.stream().filter(p -> p.track() != null).forEach(p -> tracks.put(p.track().uuid(), p.track()));
        Map<String, List<String>> bars = new TreeMap<>();
        for (PerfettoTraceReader.Slice s : slices) {
            PerfettoTraceReader.Track row = tracks.get(s.track());
            if ("task".equals(s.category()) && "Cores".equals(tracks.get(row.parent()).processName())) {
                bars.computeIfAbsent((String) s.args().get("task_id"), k -> new ArrayList<>())
                        .add(s.startNs() + " " + s.endNs());
            }
        }
        return bars;
    }

    @Test
    void everyCoreTaskRecordIsExactlyOneSliceWithItsNanoseconds() throws IOException {
        Map<String, List<String>> records = new TreeMap<>();
        try (ChunkReader r = ChunkReader.open(ChunkStore.file(run, "swimlane"))) {
            // CoreTaskRecord's layout table: start_ns at 0, end_ns at 8, task_id at 16, little-endian u64
            ChunkRecords.forEach(r, CoreTaskRecord.KIND, (lane, seg, off) -> records.computeIfAbsent(
                    String.format("0x%016x", seg.get(LE_LONG, off + 16)), k -> new ArrayList<>())
                    .add(seg.get(LE_LONG, off) + " " + seg.get(LE_LONG, off + 8)));
        }
        assertThat(records).isNotEmpty();
        assertThat(coreSlices()).isEqualTo(records);
        // every submitted task (deps.json) ran once and is one slice
        JsonNode deps = new ObjectMapper().readTree(run.resolve("deps.json").toFile());
        Set<String> submitted = new HashSet<>();
        deps.path("tasks").forEach(t -> submitted.add(t.path("task_id").asText()));
        assertThat(coreSlices().keySet()).isEqualTo(submitted);
        assertThat(coreSlices().values()).allSatisfy(l -> assertThat(l).hasSize(1));
    }

    @Test
    void oneRecordByHandFromDfxScript() {
        CliRun script = CliRun.dfx("script", run.toString(), "--ns");
        assertThat(script.status()).as(script.err()).isZero();
        // e.g. "core-task 1 [001] 12378.959354262: swimlane:core-task: end_ns=12379032726520 task_id=0x...01 ..."
        Matcher m = Pattern.compile(" (\\d+)\\.(\\d{9}): swimlane:core-task: end_ns=(\\d+) task_id=(0x[0-9a-f]{16}) ")
                .matcher(script.out());
        assertThat(m.find()).isTrue();
        long start = Long.parseLong(m.group(1) + m.group(2));
        assertThat(coreSlices().get(m.group(4))).containsExactly(start + " " + m.group(3));
    }

    @Test
    void theSequenceIsClearedFirstAndTracksAreDeclaredBeforeUseAndSlicesNest() throws IOException {
        PerfettoTraceReader.Packet first = packets.getFirst();
        assertThat(first.sequenceId()).isEqualTo(1);
        assertThat(first.flags()).isEqualTo(1); // SEQ_INCREMENTAL_STATE_CLEARED
        JsonNode manifest = new ObjectMapper().readTree(run.resolve("run.json").toFile());
        long origin = manifest.path("clock").path("origin_ns").asLong();
        assertThat(first.clocks().primary()).isEqualTo(3); // BUILTIN_CLOCK_MONOTONIC: System.nanoTime
        assertThat(first.clocks().clocks()).containsEntry(3, origin)
                .containsEntry(1, manifest.path("clock").path("epoch_ns_at_origin").asLong());
        assertThat(packets).allSatisfy(p -> assertThat(p.sequenceId()).isEqualTo(1));
        assertThat(PerfettoTraceReader.undeclaredTracks(packets)).isEmpty();
        assertThat(problems).isEmpty();
        assertThat(packets).allSatisfy(p -> assertThat(p.ts() == null || p.ts() >= origin).isTrue());
    }

    @Test
    void flowsPairAndAreTheDepsJsonEdges() throws IOException {
        Map<Long, String> from = new HashMap<>();
        Map<Long, String> to = new HashMap<>();
        Map<String, Long> start = new HashMap<>();
        int starts = 0;
        int ends = 0;
        for (PerfettoTraceReader.Slice s : slices) {
            String task = (String) s.args().get("task_id");
            if ("task".equals(s.category())) {
                start.put(task, s.startNs());
            }
            for (long id : s.flowIds()) {
                starts++;
                assertThat(from.put(id, task)).as("flow %d begins twice", id).isNull();
            }
            for (long id : s.terminatingFlowIds()) {
                ends++;
                assertThat(to.put(id, task)).as("flow %d terminates twice", id).isNull();
            }
        }
        assertThat(from.keySet()).isEqualTo(to.keySet());
        assertThat(starts).isEqualTo(ends).isEqualTo(from.size());
        Set<String> drawn = new HashSet<>();
        from.forEach((id, pred) -> drawn.add(pred + " -> " + to.get(id)));
        assertThat(drawn).hasSize(from.size()); // no pair drawn twice

        // deps.json: the distinct edges whose tasks both ran, the predecessor starting no later than its successor
        Set<String> expected = new HashSet<>();
        new ObjectMapper().readTree(run.resolve("deps.json").toFile()).path("edges").forEach(e -> {
            String pred = e.path("pred").asText();
            String succ = e.path("succ").asText();
            if (start.containsKey(pred) && start.containsKey(succ) && start.get(pred) <= start.get(succ)) {
                expected.add(pred + " -> " + succ);
            }
        });
        assertThat(expected).isNotEmpty();
        assertThat(drawn).isEqualTo(expected);
        assertThat(content.metadata()).contains("dependency_arrows=" + drawn.size() + " arrows from deps");
    }

    @Test
    void theContentIsTheChromeExportsInExactNanoseconds() throws IOException {
        CliRun chrome = CliRun.dfx("export", run.toString(), "--format", "chrome", "-o", "-");
        assertThat(chrome.status()).as(chrome.err()).isZero();
        JsonNode json = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .readTree(chrome.out());
        TraceContent c = TraceContent.ofChrome(json, json.path("metadata").path("origin_ns").asLong());
        assertThat(content.counters()).isNotEmpty().isEqualTo(c.counters());
        assertThat(content.slices()).hasSizeGreaterThan(100).isEqualTo(c.slices());
        assertThat(content.flows()).isEqualTo(c.flows());
        assertThat(content.instants()).isEqualTo(c.instants());
        assertThat(content.metadata()).isEqualTo(c.metadata());
    }

    @Test
    void standardOutputGetsTheSameBytes() {
        CliRun r = CliRun.dfx("export", run.toString(), "--format", "perfetto", "-o", "-");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(proto);
    }

    @Test
    void anUnknownFormatListsTheFormats() {
        CliRun r = CliRun.dfx("export", run.toString(), "--format", "protobuf", "-o", shared.resolve("x").toString());
        assertThat(r.status()).as("a usage error").isEqualTo(2);
        assertThat(r.err()).isEqualTo("dfx: export: Invalid value for option '--format': 'protobuf' is not a format;"
                + " expected chrome, perfetto, html, folded or speedscope (see 'dfx export --help')\n");
        assertThat(shared.resolve("x")).doesNotExist();
    }

    @Test
    void anUnknownFormatIsNamedBeforeAMissingOutput() {
        CliRun r = CliRun.dfx("export", run.toString(), "--format", "Protobuf");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("dfx: export: Invalid value for option '--format': 'Protobuf' is not a"
                + " format;");
    }
}
