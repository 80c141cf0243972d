package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.dfx.export.PerfettoSampleReader;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx export perf.data --format folded|speedscope|perfetto|chrome} carry the callstacks {@code perf script}
 * prints, on a fresh recording of renamer.c ({@code page-faults -c 1 -g}: kernel and user frames, renamed threads,
 * a fork and an exec), with symbols (the program's, libc's, the running kernel's where perf may read them) and
 * without ({@code --symfs} nowhere, {@code --kallsyms=/dev/null}: frames named by their DSO); both sides with an
 * empty build-id cache. The expected folded text is
 * stackcollapse-perf.pl's rules applied here to perf script's text; speedscope's file is checked against the schema
 * its npm package publishes (fetched by scripts/speedscope.sh; skipped without npm), then read back.
 */
class ExportProfileLiveTest {
    @TempDir
    static Path dir;

    private static Path data;
    private static Path cache;
    /** perf script's samples, by whether symbols were looked up. */
    private static final Map<Boolean, List<PerfScriptStacks.Stack>> PERF = new HashMap<>();

    @BeforeAll
    static void record() throws Exception {
        data = LiveRecording.record(dir, "stacks.data", "-e", "page-faults", "-c", "1", "-g");
        cache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        for (boolean symbols : List.of(false, true)) {
            List<String> args = new ArrayList<>(List.of("--buildid-dir", cache.toString(), "script", "-i",
                data.toString(), "--ns"));
            if (!symbols) {
                args.addAll(List.of("--symfs=/nonexistent", "--kallsyms=/dev/null"));
            }
            PERF.put(symbols, PerfScriptStacks.parse(LiveRecording.perfOutput(dir, args.toArray(String[]::new))));
            assertThat(PERF.get(symbols)).hasSizeGreaterThan(50);
        }
    }

    /** dfx export with an empty build-id cache, and without symbol lookups unless {@code symbols}. */
    private static Path export(String format, boolean symbols) {
        Path out = dir.resolve("stacks-" + symbols + "." + format);
        List<String> args = new ArrayList<>(List.of("export", data.toString(), "--format", format, "-o",
            out.toString(), "--buildid-dir", cache.toString()));
        if (!symbols) {
            args.addAll(List.of("--symfs", "/nonexistent", "-k", "/dev/null"));
        }
        CliRun run = CliRun.dfx(args.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        return out;
    }

    /** stackcollapse-perf.pl's tidying of a frame name (its defaults: tidy_generic). */
    private static String tidy(String func) {
        String f = func.replace(';', ':');
        if (!f.matches(".*\\.\\(.*\\)\\..*") && f.indexOf('(') >= 0) {
            f = f.substring(0, f.indexOf('('));
        }
        return f.replace("\"", "").replace("'", "");
    }

    @ParameterizedTest(name = "symbols={0}")
    @ValueSource(booleans = {false, true})
    void foldedIsWhatStackcollapseMakesOfPerfScript(boolean symbols) throws IOException {
        List<PerfScriptStacks.Stack> perfStacks = PERF.get(symbols);
        Map<String, Long> counts = new HashMap<>();
        String first = perfStacks.getFirst().event();
        for (PerfScriptStacks.Stack s : perfStacks) {
            if (!s.event().equals(first)) {
                continue;
            }
            StringBuilder line = new StringBuilder(s.comm().replace(' ', '_'));
            for (PerfScriptStacks.Frame f : s.frames()) {
                line.append(';').append(tidy(f.name()));
            }
            counts.merge(line.toString(), 1L, Long::sum);
        }
        // Perl's sort compares the byte strings
        List<byte[]> keys = new ArrayList<>();
        counts.keySet().forEach(k -> keys.add(k.getBytes(StandardCharsets.UTF_8)));
        keys.sort(Arrays::compareUnsigned);
        StringBuilder expected = new StringBuilder();
        for (byte[] k : keys) {
            String key = new String(k, StandardCharsets.UTF_8);
            expected.append(key).append(' ').append(counts.get(key)).append('\n');
        }
        String folded = Files.readString(export("folded", symbols), StandardCharsets.UTF_8);
        assertThat(folded).isEqualTo(expected.toString());
        assertThat(folded).contains("thread-π;", "a日本語の;", "kind-ö;", "grüße-main;");
        // the program's own functions by name with symbols, by its file's name without
        assertThat(folded).contains(symbols ? ";fill_pages" : ";[renamer]");
    }

    @ParameterizedTest(name = "symbols={0}")
    @ValueSource(booleans = {false, true})
    void perfettoSamplesHavePerfScriptsStacksAndNames(boolean symbols) throws IOException {
        List<PerfScriptStacks.Stack> perfStacks = PERF.get(symbols);
        PerfettoSampleReader.Content trace;
        try (InputStream in = Files.newInputStream(export("perfetto", symbols))) {
            trace = PerfettoSampleReader.read(in);
        }
        List<String> expected = new ArrayList<>();
        Map<Integer, List<String>> expectedNames = new TreeMap<>();
        for (PerfScriptStacks.Stack s : perfStacks) {
            expected.add(s.tid() + " " + s.frames().stream().map(PerfScriptStacks.Frame::name).toList());
            List<String> names = expectedNames.computeIfAbsent(s.tid(), t -> new ArrayList<>());
            if (names.isEmpty() || !names.getLast().equals(s.comm())) {
                names.add(s.comm());
            }
        }
        List<String> actual = new ArrayList<>();
        for (PerfettoSampleReader.Sample s : trace.samples()) {
            actual.add(s.tid() + " " + s.functions());
        }
        assertThat(actual).isEqualTo(expected);
        Map<Integer, List<String>> names = new TreeMap<>();
        trace.threadNames().forEach(n -> names.computeIfAbsent(n.tid(), t -> new ArrayList<>()).add(n.name()));
        assertThat(names).isEqualTo(expectedNames);
        // kernel frames lie in [kernel.kallsyms]; every sample is of the recorded program's processes
        assertThat(trace.samples().getFirst().mappings()).contains("/[kernel.kallsyms]");
    }

    @ParameterizedTest(name = "symbols={0}")
    @ValueSource(booleans = {false, true})
    void chromeSamplesNameTheirStackFrames(boolean symbols) throws IOException {
        List<PerfScriptStacks.Stack> perfStacks = PERF.get(symbols);
        JsonNode t = new ObjectMapper().readTree(export("chrome", symbols).toFile());
        JsonNode frames = t.path("stackFrames");
        List<String> actual = new ArrayList<>();
        for (JsonNode e : t.path("traceEvents")) {
            if (e.path("name").asText().equals("page-faults")) {
                List<String> stack = new ArrayList<>();
                for (String id = e.path("sf").asText(); !id.isEmpty(); id = frames.path(id).path("parent").asText()) {
                    stack.addFirst(frames.path(id).path("name").asText());
                }
                actual.add(e.path("args").path("tid").asInt() + " " + stack);
            }
        }
        List<String> expected = perfStacks.stream()
            .map(s -> s.tid() + " " + s.frames().stream().map(PerfScriptStacks.Frame::name).toList()).toList();
        assertThat(actual).isEqualTo(expected);
    }

    @ParameterizedTest(name = "symbols={0}")
    @ValueSource(booleans = {false, true})
    void speedscopeFollowsItsSchemaAndHoldsEachThreadsStacks(boolean symbols) throws Exception {
        List<PerfScriptStacks.Stack> perfStacks = PERF.get(symbols);
        Path out = export("speedscope", symbols);
        JsonNode file = new ObjectMapper().readTree(out.toFile());
        String schemaPath;
        try {
            schemaPath = CPrograms.run(CPrograms.ROOT, List.of("bash",
                CPrograms.ROOT.resolve("scripts/speedscope.sh").toString())).strip();
        } catch (IOException e) {
            assumeTrue(false, "speedscope's schema is not available here: " + e.getMessage());
            return;
        }
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
            .getSchema(Files.newInputStream(Path.of(schemaPath.lines().reduce((a, b) -> b).orElseThrow())));
        List<Error> errors = schema.validate(file);
        assertThat(errors).isEmpty();
        // read it back as speedscope does: a profile per thread, each sample a list of indexes into shared frames
        JsonNode shared = file.path("shared").path("frames");
        Map<String, List<String>> actual = new LinkedHashMap<>();
        for (JsonNode p : file.path("profiles")) {
            List<String> stacks = new ArrayList<>();
            for (JsonNode sample : p.path("samples")) {
                List<String> names = new ArrayList<>();
                sample.forEach(i -> names.add(shared.get(i.asInt()).path("name").asText()));
                stacks.add(names.toString());
            }
            assertThat(p.path("weights")).hasSize(stacks.size()).allMatch(w -> w.asLong() == 1);
            String name = p.path("name").asText();
            actual.put(name.substring(name.indexOf(' ') + 1, name.indexOf(" (")), stacks);
        }
        Map<String, List<String>> expected = new LinkedHashMap<>();
        for (PerfScriptStacks.Stack s : perfStacks) {
            expected.computeIfAbsent(Integer.toString(s.tid()), k -> new ArrayList<>())
                .add(s.frames().stream().map(PerfScriptStacks.Frame::name).toList().toString());
        }
        assertThat(actual).isEqualTo(expected);
    }
}
