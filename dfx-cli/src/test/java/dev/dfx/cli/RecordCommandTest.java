package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.export.PerfettoTraceReader;
import dev.dfx.export.TraceContent;
import dev.dfx.export.TraceEventChecker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx record}, {@code report} and {@code export} in-process on the smallest workload (decoder, 288 tasks):
 * the summary, the run directory, and a trace.json that passes the trace-event checks, with one bar per task on
 * the cores, scheduler and orchestrator rows, one arrow per dependency pair, and stall slices on exactly the
 * threads whose lanes stalled.
 */
@Timeout(120)
class RecordCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static JsonNode trace(Path run) throws IOException {
        try (InputStream in = Files.newInputStream(run.resolve("trace.json"))) {
            assertThat(TraceEventChecker.check(in)).as("trace-event problems").isEmpty();
        }
        return JSON.readTree(run.resolve("trace.json").toFile());
    }

    static List<JsonNode> events(JsonNode trace, String ph, String cat) {
        List<JsonNode> l = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals(ph) && (cat == null || e.path("cat").asText().equals(cat))) {
                l.add(e);
            }
        }
        return l;
    }

    /** @return "pid/tid" to the thread's name */
    static Map<String, String> threadNames(JsonNode trace) {
        Map<String, String> m = new HashMap<>();
        for (JsonNode e : events(trace, "M", null)) {
            if (e.get("name").asText().equals("thread_name")) {
                m.put(e.get("pid").asInt() + "/" + e.get("tid").asInt(), e.get("args").get("name").asText());
            }
        }
        return m;
    }

    @Test
    void recordWritesTheRunDirectoryAndReportReadsTheSameSummaryBack() throws IOException {
        Path run = tmp.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--json");
        assertThat(r.err()).isEmpty();
        assertThat(r.status()).isZero();
        JsonNode summary = JSON.readTree(r.out());
        assertThat(summary.get("status").asText()).isEqualTo("ok");
        assertThat(summary.get("tasks").asLong()).isEqualTo(288);
        assertThat(summary.get("trace").asText()).isEqualTo(run.resolve("trace.json").toString());
        for (JsonNode s : summary.get("subsystems")) {
            assertThat(s.get("dropped").asLong()).isZero();
            assertThat(s.get("silent_loss").asLong()).isZero();
        }
        for (String f : List.of("run.json", "trace.json", "pmu.csv", "deps.json", "scopes.jsonl", "args/args.json",
                "args/args.bin", "chunks/swimlane.dfx", "chunks/pmu.dfx", "chunks/deps.dfx", "chunks/args.dfx",
                "chunks/scopes.dfx")) {
            assertThat(run.resolve(f)).as(f).exists();
        }

        CliRun report = CliRun.dfx("report", run.toString(), "--json");
        assertThat(report.status()).isZero();
        assertThat(JSON.readTree(report.out())).isEqualTo(summary);
        CliRun text = CliRun.dfx("report", run.toString());
        assertThat(text.out()).contains("status ok", "swimlane", "stalled lanes: none", "trace: " + run.resolve("trace.json"));

        Path exported = tmp.resolve("again.json");
        CliRun export = CliRun.dfx("export", run.toString(), "--format", "chrome", "-o", exported.toString());
        assertThat(export.status()).isZero();
        assertThat(Files.readAllBytes(exported)).isEqualTo(Files.readAllBytes(run.resolve("trace.json")));
    }

    @Test
    void traceHasABarPerTaskOnEachViewAndAnArrowPerDependencyPair() throws IOException {
        Path run = tmp.resolve("run");
        assertThat(CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--quiet").status()).isZero();
        JsonNode trace = trace(run);
        assertThat(events(trace, "X", "task")).hasSize(288);
        assertThat(events(trace, "X", "dispatch")).hasSize(288);
        assertThat(events(trace, "X", "submit")).hasSize(288);
        assertThat(events(trace, "X", "phase")).isNotEmpty();
        assertThat(events(trace, "C", null)).isNotEmpty();
        assertThat(events(trace, "X", "stall")).isEmpty();
        Set<String> pairs = new HashSet<>();
        for (JsonNode e : JSON.readTree(run.resolve("deps.json").toFile()).get("edges")) {
            pairs.add(e.get("pred").asText() + ">" + e.get("succ").asText());
        }
        assertThat(pairs).isNotEmpty();
        assertThat(events(trace, "s", "task")).hasSize(pairs.size());
        assertThat(events(trace, "f", "task")).hasSize(pairs.size());
        // each core bar's row is a core row; the trace's time is exact ns from the run's clock origin
        Map<String, String> names = threadNames(trace);
        for (JsonNode bar : events(trace, "X", "task")) {
            assertThat(names.get(bar.get("pid").asInt() + "/" + bar.get("tid").asInt())).startsWith("core ");
        }
        assertThat(trace.get("metadata").get("origin_ns").asLong())
                .isEqualTo(JSON.readTree(run.resolve("run.json").toFile()).get("clock").get("origin_ns").asLong());
    }

    @Test
    void blockWithTinyPoolsLosesNothingAndMarksTheStalledLanesInTheTrace() throws IOException {
        Path run = tmp.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--pool", "swimlane=1x1",
                "--pool", "pmu=1x2", "--stall-threshold", "1ns");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("stalled lanes:\n  swimlane core-task core 0:");
        assertThat(r.out().lines()).noneMatch(l -> l.endsWith(" "));
        JsonNode manifest = JSON.readTree(run.resolve("run.json").toFile());
        JsonNode trace = trace(run);
        Map<String, String> names = threadNames(trace);
        long windows = 0;
        Set<String> stalledThreads = new HashSet<>();
        for (JsonNode s : manifest.get("subsystems")) {
            assertThat(s.get("dropped").asLong()).isZero();
            assertThat(s.get("collected").asLong()).isEqualTo(s.get("total").asLong());
            for (JsonNode l : s.get("lanes")) {
                windows += l.get("stalls").get("windows").size();
                if (l.get("stalls").get("count").asLong() > 0) {
                    String role = l.get("role").asText();
                    stalledThreads.add((role.equals("scheduler") ? "sched" : role) + " " + l.get("instance").asInt());
                }
            }
        }
        List<JsonNode> stalls = events(trace, "X", "stall");
        assertThat(windows).isPositive();
        assertThat(stalls).hasSize((int) windows);
        Set<String> rows = new HashSet<>();
        for (JsonNode st : stalls) {
            assertThat(st.get("name").asText()).isEqualTo("STALL (collector behind)");
            rows.add(names.get(st.get("pid").asInt() + "/" + st.get("tid").asInt()));
        }
        List<String> expected = stalledThreads.stream().map(t -> t.equals("orchestrator 0") ? "orchestrator STALL"
                : t + " STALL").toList();
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(trace.get("metadata").get("stalls").asLong()).isEqualTo(windows);

        Path html = tmp.resolve("report.html");
        assertThat(CliRun.dfx("export", run.toString(), "--format", "html", "-o", html.toString()).status()).isZero();
        String page = Files.readString(html);
        // the viewer's data holds the stall slices on the stall rows (ExportHtmlBrowserTest opens such pages)
        assertThat(page).startsWith("<!DOCTYPE html>").contains("\"name\":\"core 0 STALL\"",
                "\"STALL (collector behind)\"").doesNotContain("<link", " src=", "http://", "https://");
    }

    @Test
    void queueDepthSeriesOfRunJsonAreDrawnAsCounterTracksInChromeAndPerfetto() throws IOException {
        Path run = tmp.resolve("run");
        // one buffer per swimlane lane: its producer empties its free queue at every take
        assertThat(CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--pool", "swimlane=1x1").status())
                .isZero();
        JsonNode manifest = JSON.readTree(run.resolve("run.json").toFile());
        long origin = manifest.get("clock").get("origin_ns").asLong();
        long end = origin + manifest.get("wall_ns").asLong();
        List<String> expected = new ArrayList<>();
        int drained = 0;
        for (JsonNode s : manifest.get("subsystems")) {
            for (JsonNode l : s.get("lanes")) {
                JsonNode series = l.get("free_depth");
                assertThat(series).as("every lane has its series").isNotNull().isNotEmpty();
                String track = "free-queue depth (" + s.get("name").asText() + " " + l.get("kind").asText()
                        + " lane " + l.get("lane").asInt() + ")";
                long low = Long.MAX_VALUE;
                long previousEnd = Long.MIN_VALUE;
                for (JsonNode d : series) {
                    assertThat(d.get("start_ns").asLong()).isGreaterThanOrEqualTo(previousEnd);
                    previousEnd = d.get("end_ns").asLong();
                    low = Math.min(low, d.get("min_depth").asLong());
                }
                expected.addAll(depthPoints(track, series, origin, end));
                // the host reads the true depth, the producer a possibly older tail: never lower than its own
                assertThat(low).isGreaterThanOrEqualTo(l.get("min_free_depth").asLong());
                if (s.get("name").asText().equals("swimlane") && l.get("total").asLong() > 0) {
                    assertThat(low).as("a one-buffer lane that wrote took its only buffer").isZero()
                            .isEqualTo(l.get("min_free_depth").asLong());
                    drained++;
                }
            }
        }
        assertThat(drained).isPositive();
        assertThat(expected).as("points inside the run").isNotEmpty();
        int freePoints = expected.size();
        int backlogged = 0;
        for (JsonNode s : manifest.get("subsystems")) {
            for (JsonNode q : s.get("queues")) {
                JsonNode series = q.get("ready_depth");
                assertThat(series).as("every ready queue has its series").isNotNull().isNotEmpty();
                long peak = q.get("max_ready_depth").asLong();
                long high = 0;
                for (JsonNode d : series) {
                    long top = d.get("max_depth").asLong();
                    assertThat(top).isLessThan(q.get("capacity").asLong());
                    high = Math.max(high, top);
                }
                // the producer measures against a head it may have read earlier, the host against the true head
                assertThat(high).isLessThanOrEqualTo(peak);
                backlogged += high > 0 ? 1 : 0;
                if (peak == 0) {
                    continue; // nothing was published to it: no track
                }
                String track = "ready-queue depth (" + s.get("name").asText() + " " + q.get("role").asText() + " "
                        + q.get("instance").asInt() + ")";
                expected.addAll(depthPoints(track, series, origin, end));
            }
        }
        assertThat(backlogged).as("the host found a published buffer waiting on some ready queue").isPositive();
        JsonNode trace = trace(run);
        List<String> chrome = depthCounters(TraceContent.ofChrome(trace, origin));
        assertThat(chrome).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(trace.get("metadata").get("free_queue_depth_points").asLong() * 2).isEqualTo(freePoints);
        assertThat(trace.get("metadata").get("ready_queue_depth_points").asLong() * 2)
                .isEqualTo(expected.size() - freePoints);

        Path proto = tmp.resolve("trace.perfetto-trace");
        assertThat(CliRun.dfx("export", run.toString(), "--format", "perfetto", "-o", proto.toString()).status())
                .isZero();
        List<String> problems = new ArrayList<>();
        try (InputStream in = Files.newInputStream(proto)) {
            assertThat(depthCounters(TraceContent.ofPerfetto(PerfettoTraceReader.read(in), problems)))
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(problems).isEmpty();
    }

    /**
     * @return the counter points a depth series of run.json must give, {@code TRACK KEY|ts|value}: at each interval's
     *         start its extremes, at its end (when changes were folded) the last depth, inside the run's time range
     */
    private static List<String> depthPoints(String track, JsonNode series, long origin, long end) {
        List<String> points = new ArrayList<>();
        for (JsonNode d : series) {
            long start = d.get("start_ns").asLong();
            long stop = d.get("end_ns").asLong();
            if (start >= origin && start <= end) {
                points.add(track + " max|" + start + "|" + d.get("max_depth").asLong());
                points.add(track + " min|" + start + "|" + d.get("min_depth").asLong());
            }
            if (stop > start && stop >= origin && stop <= end) {
                points.add(track + " max|" + stop + "|" + d.get("last_depth").asLong());
                points.add(track + " min|" + stop + "|" + d.get("last_depth").asLong());
            }
        }
        return points;
    }

    /** @return the free- and ready-queue depth counter points, {@code TRACK KEY|ts|value}, without their process */
    private static List<String> depthCounters(TraceContent t) {
        return t.counters().stream().map(c -> c.replaceFirst("^.*?(?=(free|ready)-queue depth \\()", ""))
                .filter(c -> c.startsWith("free-queue depth (") || c.startsWith("ready-queue depth (")).toList();
    }

    @Test
    void blockLosesRecordsOnlyAfterABackstopExpiryAndTheFirstLineSaysHowMany() throws IOException {
        Path run = tmp.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "gemm", "-o", run.toString(), "--pool", "swimlane=1x1", "--pool",
                "deps=1x1", "--backstop", "1ms", "--stall-threshold", "10us");
        assertThat(r.status()).as(r.err()).isZero();
        long total = 0;
        long dropped = 0;
        long expiries = 0;
        long gates = 0;
        long stopped = 0;
        for (JsonNode s : JSON.readTree(run.resolve("run.json").toFile()).get("subsystems")) {
            total += s.get("total").asLong();
            dropped += s.get("dropped").asLong();
            expiries += s.get("backstop_expiries").asLong();
            JsonNode causes = s.get("dropped_by_cause");
            assertThat(causes.get("collector").asLong()).isZero();
            gates += causes.get("push_gate").asLong() + causes.get("pop_gate").asLong()
                    + causes.get("degraded").asLong();
            // a writer preempted past stop's one-backstop (1 ms) wait on a loaded machine drops what it still wrote
            stopped += causes.get("stopped").asLong();
        }
        assertThat(expiries).as("a 1 ms budget with one-record buffers runs out").isPositive();
        assertThat(dropped).isPositive().isEqualTo(gates + stopped);
        assertThat(r.out().lines().findFirst().orElseThrow()).endsWith("status ok, " + dropped + " of " + total
                + " records dropped (" + gates + " after backstop expiries" + (stopped == 0 ? "" : "; " + stopped
                + " still being written when stop's wait for the writers (one backstop) ended") + ")");
    }

    @Test
    void dropWithTinyPoolsCountsTheLossAndStillWritesAValidTrace() throws IOException {
        Path run = tmp.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--backpressure", "drop",
                "--pool", "swimlane=1x1", "--pool", "deps=1x1", "--json");
        assertThat(r.status()).isZero();
        JsonNode summary = JSON.readTree(r.out());
        long dropped = 0;
        for (JsonNode s : summary.get("subsystems")) {
            assertThat(s.get("collected").asLong() + s.get("dropped").asLong()).isEqualTo(s.get("total").asLong());
            assertThat(s.get("silent_loss").asLong()).isZero();
            dropped += s.get("dropped").asLong();
        }
        assertThat(dropped).isPositive();
        long total = 0;
        for (JsonNode s : summary.get("subsystems")) {
            total += s.get("total").asLong();
        }
        assertThat(CliRun.dfx("report", run.toString()).out().lines().findFirst().orElseThrow())
                .as("status ok does not hide the loss").endsWith("status ok, " + dropped + " of " + total
                        + " records dropped");
        JsonNode trace = trace(run);
        assertThat(events(trace, "X", "task").size()).isLessThanOrEqualTo(288);

        // the loss is in the trace: per subsystem in the metadata, per thread as DROPPED slices at its drops' times
        JsonNode meta = trace.get("metadata");
        assertThat(meta.get("records_dropped").asLong()).isEqualTo(dropped);
        for (JsonNode s : summary.get("subsystems")) {
            JsonNode counts = meta.get("subsystems").get(s.get("name").asText());
            assertThat(counts.get("total").asLong()).isEqualTo(s.get("total").asLong());
            assertThat(counts.get("collected").asLong()).isEqualTo(s.get("collected").asLong());
            assertThat(counts.get("dropped").asLong()).isEqualTo(s.get("dropped").asLong());
        }
        // per thread, where its lanes' drops happened (run.json's drop windows, joined where they overlap) is where
        // the trace draws them, on the thread's DROPPED row
        Map<String, List<long[]>> windowsByThread = new HashMap<>();
        Map<String, Long> byThread = new HashMap<>();
        for (JsonNode s : JSON.readTree(run.resolve("run.json").toFile()).get("subsystems")) {
            for (JsonNode l : s.get("lanes")) {
                long n = 0;
                for (JsonNode c : l.get("dropped_by_cause")) {
                    n += c.asLong();
                }
                List<long[]> windows = new ArrayList<>();
                long inWindows = 0;
                for (JsonNode win : l.get("drops").get("windows")) {
                    windows.add(new long[] {win.get("start_ns").asLong(), win.get("end_ns").asLong(),
                            win.get("count").asLong()});
                    inWindows += win.get("count").asLong();
                }
                assertThat(inWindows).as("every drop of an in-process lane has its time").isEqualTo(n);
                for (int i = 1; i < windows.size(); i++) {
                    assertThat(windows.get(i)[0]).as("ordered and disjoint").isGreaterThan(windows.get(i - 1)[1]);
                }
                assertThat(l.get("drops").get("runs").asLong()).isGreaterThanOrEqualTo(windows.size());
                if (n > 0) {
                    String role = l.get("role").asText();
                    String thread = (role.equals("scheduler") ? "sched " : role.equals("core") ? "core " : "orchestrator")
                            + (role.equals("orchestrator") ? "" : l.get("instance").asText());
                    byThread.merge(thread, n, Long::sum);
                    windowsByThread.computeIfAbsent(thread, k -> new ArrayList<>()).addAll(windows);
                }
            }
        }
        long origin = meta.get("origin_ns").asLong();
        Map<String, String> names = threadNames(trace);
        Map<String, List<long[]>> drawn = new HashMap<>();
        for (JsonNode d : events(trace, "X", "drop")) {
            String row = names.get(d.get("pid").asInt() + "/" + d.get("tid").asInt());
            assertThat(row).endsWith(" DROPPED");
            long start = origin + d.get("ts").decimalValue().movePointRight(3).longValueExact();
            long n = Long.parseLong(d.get("name").asText().replaceAll("DROPPED (\\d+) records?", "$1"));
            drawn.computeIfAbsent(row.substring(0, row.length() - " DROPPED".length()), k -> new ArrayList<>())
                    .add(new long[] {start, start + d.get("dur").decimalValue().movePointRight(3).longValueExact(), n});
        }
        assertThat(drawn.keySet()).isEqualTo(byThread.keySet());
        for (Map.Entry<String, List<long[]>> e : windowsByThread.entrySet()) {
            List<long[]> expected = union(e.getValue());
            assertThat(drawn.get(e.getKey())).as(e.getKey()).usingElementComparator(java.util.Arrays::compare)
                    .containsExactlyElementsOf(expected);
            assertThat(expected.stream().mapToLong(w -> w[2]).sum()).isEqualTo(byThread.get(e.getKey()));
        }
        assertThat(meta.get("records_dropped_untimed").asLong()).isZero();
        assertThat(meta.get("drop_slices").asLong()).isEqualTo(drawn.values().stream().mapToLong(List::size).sum());

        // the Perfetto export of the run draws the same DROPPED slices
        Path proto = tmp.resolve("trace.perfetto-trace");
        assertThat(CliRun.dfx("export", run.toString(), "--format", "perfetto", "-o", proto.toString()).status())
                .isZero();
        List<String> problems = new ArrayList<>();
        TraceContent perfetto;
        try (InputStream in = Files.newInputStream(proto)) {
            perfetto = TraceContent.ofPerfetto(PerfettoTraceReader.read(in), problems);
        }
        assertThat(problems).isEmpty();
        List<String> chromeDrops = TraceContent.ofChrome(trace, origin).slices().stream()
                .filter(x -> x.contains("|drop|")).toList();
        assertThat(chromeDrops).hasSize((int) meta.get("drop_slices").asLong());
        assertThat(perfetto.slices().stream().filter(x -> x.contains("|drop|")).toList()).isEqualTo(chromeDrops);
    }

    /** @return windows {start, end, count} ordered, those that overlap or touch joined (counts added) */
    private static List<long[]> union(List<long[]> windows) {
        List<long[]> sorted = new ArrayList<>(windows);
        sorted.sort(java.util.Comparator.<long[]>comparingLong(w -> w[0]).thenComparingLong(w -> w[1]));
        List<long[]> out = new ArrayList<>();
        for (long[] w : sorted) {
            long[] last = out.isEmpty() ? null : out.getLast();
            if (last != null && w[0] <= last[1]) {
                last[1] = Math.max(last[1], w[1]);
                last[2] += w[2];
            } else {
                out.add(w.clone());
            }
        }
        return out;
    }

    @Test
    void everyOutputSpellsATaskIdTheSameWay() throws IOException {
        Path run = tmp.resolve("run");
        assertThat(CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--quiet", "--args-level", "2")
                .status()).isZero();
        Set<String> deps = new HashSet<>();
        JsonNode graph = JSON.readTree(run.resolve("deps.json").toFile());
        graph.get("tasks").forEach(t -> deps.add(t.get("task_id").asText()));
        Set<String> edges = new HashSet<>();
        graph.get("edges").forEach(e -> {
            edges.add(e.get("pred").asText());
            edges.add(e.get("succ").asText());
        });
        Set<String> args = new HashSet<>();
        JSON.readTree(run.resolve("args/args.json").toFile()).get("args").forEach(a -> args.add(a.get("task_id").asText()));
        Set<String> pmu = new HashSet<>();
        Files.readAllLines(run.resolve("pmu.csv")).stream().skip(1).forEach(l -> pmu.add(l.split(",")[1]));
        Set<String> bars = new HashSet<>();
        events(trace(run), "X", "task").forEach(b -> bars.add(b.get("args").get("task_id").asText()));
        Set<String> script = new HashSet<>();
        Matcher m = Pattern.compile("swimlane:core-task: .*task_id=(\\S+)")
                .matcher(CliRun.dfx("script", run.toString()).out());
        while (m.find()) {
            script.add(m.group(1));
        }
        assertThat(deps).hasSize(288).allMatch(id -> id.matches("0x[0-9a-f]{16}"));
        assertThat(edges).isNotEmpty().isSubsetOf(deps);
        assertThat(args).isEqualTo(deps);
        assertThat(pmu).isEqualTo(deps);
        assertThat(bars).isEqualTo(deps);
        assertThat(script).isEqualTo(deps);
        JsonNode outputs = JSON.readTree(run.resolve("run.json").toFile()).get("outputs");
        long payloads = 0;
        for (JsonNode a : JSON.readTree(run.resolve("args/args.json").toFile()).get("args")) {
            payloads += a.get("bin_offset").isNull() ? 0 : 1;
        }
        for (JsonNode o : outputs) {
            if (o.get("path").asText().equals("args/args.bin")) {
                assertThat(o.get("entries").asLong()).as("args.bin entries are payloads, not bytes").isEqualTo(payloads)
                        .isLessThan(Files.size(run.resolve("args/args.bin")));
            }
        }
    }

    @Test
    void quietPrintsTheRunDirectoryAndJsonQuietOnlyJson() throws IOException {
        Path run = tmp.resolve("quiet");
        CliRun q = CliRun.dfx("record", "-w", "decoder", "-s", "none", "-o", run.toString(), "--quiet");
        assertThat(q.status()).isZero();
        assertThat(q.out()).isEqualTo(run + System.lineSeparator());
        assertThat(q.err()).isEmpty();
        Path both = tmp.resolve("json");
        CliRun j = CliRun.dfx("record", "-w", "decoder", "-s", "none", "-o", both.toString(), "--quiet", "--json");
        assertThat(j.status()).isZero();
        assertThat(JSON.readTree(j.out()).get("run_dir").asText()).isEqualTo(both.toString());
        assertThat(j.out().trim()).startsWith("{").endsWith("}");
    }
}
