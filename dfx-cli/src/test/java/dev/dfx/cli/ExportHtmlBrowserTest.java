package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.export.html.HeadlessChromium;
import dev.dfx.testing.CPrograms;
import dev.dfx.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.interactions.WheelInput;

/**
 * {@code dfx export --format html} opened in a real browser (headless Chromium): the page loads without a console
 * error, the bars, rows, arrows and counters it reports match what run.json, deps.json, pmu.csv, the C program's
 * source or perf script's text say, the wheel and the keys change the visible time range, hovering a task shows its
 * id, clicking it draws its arrows; each page's screenshot is kept under {@code target/viewer-screenshots/}.
 */
class ExportHtmlBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    static HeadlessChromium browser;

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = HeadlessChromium.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private static Path export(Path input, String name) {
        Path page = tmp.resolve(name + ".html");
        CliRun r = CliRun.dfx("export", input.toString(), "--format", "html", "-o", page.toString());
        assertThat(r.status()).as(r.err()).isZero();
        return page;
    }

    private static long num(Object o) {
        return ((Number) o).longValue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    /** @return the collected records of run.json's lanes of one kind of one subsystem */
    private static long collected(JsonNode run, String subsystem, String kind) {
        long n = 0;
        for (JsonNode s : run.path("subsystems")) {
            if (s.path("name").asText().equals(subsystem)) {
                for (JsonNode l : s.path("lanes")) {
                    if (l.path("kind").asText().equals(kind)) {
                        n += l.path("collected").asLong();
                    }
                }
            }
        }
        return n;
    }

    @Test
    void aRunsPageMatchesRunJsonZoomsPansHoversAndDrawsArrows() throws Exception {
        Path run = tmp.resolve("decoder");
        CliRun rec = CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--quiet");
        assertThat(rec.status()).as(rec.err()).isZero();
        JsonNode manifest = JSON.readTree(run.resolve("run.json").toFile());
        browser.open(export(run, "run"));
        assertThat(browser.consoleErrors()).isEmpty();
        assertThat(browser.driver().getTitle()).as("the run directory's name, not its path").isEqualTo("dfx decoder");

        Map<String, Object> stats = browser.stats();
        Map<String, Object> byCat = map(stats.get("slicesByCat"));
        assertThat(num(byCat.get("task"))).isEqualTo(collected(manifest, "swimlane", "core-task"))
                .isEqualTo(manifest.path("workload").path("tasks").asLong());
        assertThat(num(byCat.get("dispatch"))).isEqualTo(collected(manifest, "swimlane", "sched-task"));
        assertThat(num(byCat.get("phase"))).isEqualTo(collected(manifest, "swimlane", "sched-phase"));
        assertThat(num(byCat.get("submit"))).isEqualTo(collected(manifest, "swimlane", "orch-phase"));
        Map<String, Object> rows = map(stats.get("rowsByProcess"));
        assertThat(rows).containsOnlyKeys("Orchestrator", "Schedulers", "Cores");
        int cores = manifest.path("config").path("cores").asInt();
        List<String> coreRows = ((List<?>) rows.get("Cores")).stream().map(String::valueOf)
                .filter(n -> !n.contains("(") && !n.contains("STALL")).toList();
        assertThat(coreRows).hasSize(cores);
        for (int c = 0; c < cores; c++) {
            assertThat(coreRows).contains("core " + c);
        }
        assertThat(((List<?>) rows.get("Schedulers")).stream().map(String::valueOf))
                .contains("sched 0 phases", "sched 0 tasks");
        // one arrow per dependency edge of deps.json (every task ran); three depth counters per scheduler
        Set<String> edges = new HashSet<>();
        JsonNode deps = JSON.readTree(run.resolve("deps.json").toFile());
        deps.path("edges").forEach(e -> edges.add(e.path("pred").asText() + ">" + e.path("succ").asText()));
        assertThat(num(stats.get("flows"))).isEqualTo(edges.size()).isPositive();
        Path traceJson = run.resolve("trace.json");
        assertThat(num(stats.get("counters"))).isEqualTo(3L * manifest.path("config").path("schedulers").asInt()
                + 2L * depthTracks(traceJson, "free-queue depth") + 2L * depthTracks(traceJson, "ready-queue depth"));
        // every ready-queue writer that published has its backlog track, with the run's own trace's points
        assertThat(depthTracks(traceJson, "ready-queue depth")).isEqualTo(manifest.findValues("max_ready_depth")
                .stream().filter(d -> d.asLong() > 0).count()).isPositive();
        for (String series : List.of("free-queue depth", "ready-queue depth")) {
            assertThat(num(browser.js("return window.dfxViewer.counterSamples(arguments[0])", series)))
                    .as(series).isEqualTo(2 * depthPoints(traceJson, series)).isPositive();
        }

        // the view opens on the workload: the first task starts within it, near its left edge, not at the origin
        List<String> pmu = Files.readAllLines(run.resolve("pmu.csv"));
        List<String> head = List.of(pmu.getFirst().split(","));
        long firstStart = Long.MAX_VALUE;
        for (String line : pmu.subList(1, pmu.size())) {
            String[] c = line.split(",");
            firstStart = Math.min(firstStart, Long.parseLong(c[head.indexOf("end_ns")])
                    - Long.parseLong(c[head.indexOf("total_ns")]));
        }
        long origin = manifest.path("clock").path("origin_ns").asLong();
        double rootScope = JSON.readTree(Files.readAllLines(run.resolve("scopes.jsonl")).get(1)).path("time_ns")
                .asLong() - origin; // the workload's first call into the orchestrator
        List<Double> view = range();
        double span = view.get(1) - view.get(0);
        // the view frames every slice, and a stall window of the set-up (a loaded machine) may come a little before
        // the workload's first call: the view is then earlier than the workload, but nowhere near the clock origin
        assertThat(view.get(0)).isLessThanOrEqualTo(firstStart - origin).isGreaterThan(rootScope / 2);
        assertThat(span).isLessThan(1.2 * manifest.path("workload").path("wall_ns").asLong());

        // wheel over the bars zooms in around the cursor; D pans right by a part of the view
        WebElement canvas = browser.driver().findElement(By.cssSelector("#timeline canvas"));
        new Actions(browser.driver()).scrollFromOrigin(WheelInput.ScrollOrigin.fromElement(canvas, 200, 0), 0, -300)
                .perform();
        List<Double> zoomed = range();
        assertThat(zoomed.get(1) - zoomed.get(0)).isLessThan(0.8 * (view.get(1) - view.get(0)));
        browser.driver().findElement(By.id("timeline")).sendKeys("d");
        List<Double> panned = range();
        assertThat(panned.get(0)).isGreaterThan(zoomed.get(0));
        assertThat(panned.get(1) - panned.get(0)).isCloseTo(zoomed.get(1) - zoomed.get(0),
                org.assertj.core.data.Offset.offset(1.0));

        // hovering a task of pmu.csv shows its id and its counters; clicking it draws its arrows from deps.json
        String[] row = pmu.get(pmu.size() / 2).split(",");
        String taskId = row[head.indexOf("task_id")];
        Map<String, Object> at = map(browser.js("return window.dfxViewer.focusTask(arguments[0])", taskId));
        new Actions(browser.driver()).moveToLocation((int) num(at.get("x")), (int) num(at.get("y"))).perform();
        String tip = (String) browser.js("return window.dfxViewer.tipText()");
        long total = Long.parseLong(row[head.indexOf("total_ns")]);
        assertThat(tip).contains("task id " + taskId).contains(head.get(6) + "=" + row[6])
                .containsPattern("kernel \\w+").contains("duration_ns: " + total);
        long arrows = edges.stream().filter(e -> e.startsWith(taskId + ">") || e.endsWith(">" + taskId)).count();
        new Actions(browser.driver()).click().perform();
        assertThat(num(browser.js("return window.dfxViewer.selectedArrows()"))).isEqualTo(arrows);
        // the screenshot (README's docs/viewer.png) shows the rows from the top, the task still hovered
        long scrolled = num(browser.js("const t = document.getElementById('timeline'), s = t.scrollTop;"
                + " t.scrollTop = 0; return s"));
        new Actions(browser.driver()).moveToLocation((int) num(at.get("x")), (int) (num(at.get("y")) + scrolled))
                .perform();
        assertThat((String) browser.js("return window.dfxViewer.tipText()")).contains("task id " + taskId);
        browser.screenshot("run");
        assertThat(browser.consoleErrors()).isEmpty();

        // dragging the bars right by 200 px shows the time 200 px' worth earlier, at the same zoom
        List<Double> before = range();
        Map<String, Object> box = map(browser.js("const r = document.querySelector('#timeline canvas')"
                + ".getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + 60, w: r.width}"));
        new Actions(browser.driver()).moveToLocation((int) num(box.get("x")), (int) num(box.get("y"))).clickAndHold()
                .moveByOffset(100, 0).moveByOffset(100, 0).release().perform();
        List<Double> dragged = range();
        double perPixel = (before.get(1) - before.get(0)) / (num(box.get("w")) - 230); // the label column is 230 px
        assertThat(dragged.get(0)).isCloseTo(before.get(0) - 200 * perPixel,
                org.assertj.core.data.Offset.offset(perPixel));
        assertThat(dragged.get(1) - dragged.get(0)).isCloseTo(before.get(1) - before.get(0),
                org.assertj.core.data.Offset.offset(1.0));

        // task bars are coloured by kernel: one colour per kernel (the name before its "(tN)"), a different one each
        Map<String, Set<String>> colours = new HashMap<>();
        for (Object o : (List<?>) browser.js("return window.dfxViewer.sliceColors('task')")) {
            List<?> nameColour = (List<?>) o;
            colours.computeIfAbsent(((String) nameColour.get(0)).replaceAll("\\(.*", ""), k -> new HashSet<>())
                    .add((String) nameColour.get(1));
        }
        assertThat(colours).hasSizeGreaterThan(1).allSatisfy((kernel, c) -> assertThat(c).as(kernel).hasSize(1));
        assertThat(colours.values().stream().map(c -> c.iterator().next()).distinct()).hasSize(colours.size());

        // the tables: a row per lane of run.json, per record of scopes.jsonl, per pmu.csv row (sortable: the first
        // click on a number column puts its largest value first), and a plot per pool of `dfx audit --json`
        long lanes = 0;
        for (JsonNode s : manifest.path("subsystems")) {
            lanes += s.path("lanes").size();
        }
        assertThat(tableRows("Per-lane counts")).isEqualTo(lanes);
        assertThat(tableRows("Scopes (scopes.jsonl)")).isEqualTo(Files.readAllLines(run.resolve("scopes.jsonl"))
                .size() - 1);
        assertThat(tableRows("PMU: per-task counters (pmu.csv)")).isEqualTo(Math.min(500, pmu.size() - 1));
        long largest = pmu.subList(1, pmu.size()).stream()
                .mapToLong(l -> Long.parseLong(l.split(",")[head.indexOf("total_ns")])).max().orElseThrow();
        assertThat(browser.js("const d = [...document.querySelectorAll('details')].find(x => x.querySelector("
                + "'summary').textContent === 'PMU: per-task counters (pmu.csv)'); const th = [...d.querySelectorAll("
                + "'th')].find(h => h.textContent === 'total_ns'); th.click(); return d.querySelector('tbody tr')"
                + ".children[+th.dataset.col].textContent")).isEqualTo(String.valueOf(largest));
        CliRun audit = CliRun.dfx("audit", run.toString(), "--json");
        assertThat(audit.status()).as(audit.err()).isZero();
        JsonNode pools = JSON.readTree(audit.out()).path("runs").path(0).path("pools");
        assertThat(pools.size()).isPositive();
        assertThat(num(browser.js("return document.querySelectorAll('.plots .plot').length"))).isEqualTo(pools.size());
        for (JsonNode p : pools) {
            assertThat((String) browser.js("return document.querySelector('.plots').textContent"))
                    .contains(p.path("kind").asText() + " " + p.path("verdict").asText());
        }
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /**
     * @return the rows a table of the page shows under the section titled {@code title}, opened as a user opens it
     *         (a click on its summary: a closed section's table is built when it is first opened)
     */
    private static long tableRows(String title) {
        return num(browser.js("const d = [...document.querySelectorAll('details')].find(x => x.querySelector("
                + "'summary').textContent === arguments[0]); if (!d.open) { d.querySelector('summary').click(); }"
                + " return d.querySelectorAll('tbody tr').length", title));
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachDropWindowOfRunJsonIsADropBarOnItsThreadsDroppedRowAndShadesTheThread() throws Exception {
        Path run = tmp.resolve("drop-run");
        CliRun rec = CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--quiet", "--backpressure", "drop",
                "--pool", "swimlane=1x1");
        assertThat(rec.status()).as(rec.err()).isZero();
        JsonNode manifest = JSON.readTree(run.resolve("run.json").toFile());
        long origin = manifest.path("clock").path("origin_ns").asLong();
        browser.open(export(run, "drops"));
        assertThat(browser.consoleErrors()).isEmpty();
        int windows = 0;
        for (JsonNode s : manifest.path("subsystems")) {
            for (JsonNode l : s.path("lanes")) {
                String thread = switch (l.path("role").asText()) {
                    case "core" -> "core " + l.path("instance").asInt();
                    case "scheduler" -> "sched " + l.path("instance").asInt();
                    default -> "orchestrator";
                };
                List<List<Object>> bars = (List<List<Object>>) browser.js(
                        "return window.dfxViewer.slicesOfRow(arguments[0])", thread + " DROPPED");
                for (JsonNode w : l.path("drops").path("windows")) {
                    windows++;
                    double start = w.path("start_ns").asLong() - origin;
                    double end = w.path("end_ns").asLong() - origin;
                    assertThat(bars).as("%s: a drop bar over %s", thread, w).anySatisfy(b -> {
                        assertThat(b.get(2)).isEqualTo("drop");
                        assertThat(((Number) b.get(0)).doubleValue()).isLessThanOrEqualTo(start);
                        assertThat(((Number) b.get(0)).doubleValue() + ((Number) b.get(1)).doubleValue())
                                .isGreaterThanOrEqualTo(end);
                    });
                }
            }
        }
        assertThat(windows).as("drop windows in run.json (1-record buffers under drop)").isPositive();
        long dropBars = num(map(browser.stats().get("slicesByCat")).get("drop"));
        assertThat(num(browser.js("return window.dfxViewer.shadedWindows('drop')"))).isEqualTo(dropBars);
        browser.screenshot("drops");
    }

    /** @return a tick label such as {@code 12.5 ms} in ns */
    private static double nanoseconds(String label) {
        String[] valueUnit = label.split(" ");
        double unit = switch (valueUnit[1]) {
            case "s" -> 1e9;
            case "ms" -> 1e6;
            case "µs" -> 1e3;
            case "ns" -> 1;
            default -> throw new AssertionError("a tick label without a time unit: " + label);
        };
        return Double.parseDouble(valueUnit[0]) * unit;
    }

    @SuppressWarnings("unchecked")
    private static List<Double> range() {
        return ((List<Number>) browser.js("return window.dfxViewer.visibleRange()")).stream()
                .map(Number::doubleValue).toList();
    }

    @Test
    void aCommandsPageHasItsSlicesInstantsCountersAndArrows() throws Exception {
        Path bin = tmp.resolve("bin");
        Files.createDirectories(bin);
        Path exe = CPrograms.build(CPrograms.ROOT.resolve("examples/c/hello.c"), bin.resolve("hello"));
        Path run = tmp.resolve("hello-run");
        CliRun rec = CliRun.dfx("record", "-o", run.toString(), "--quiet", "--", exe.toString());
        assertThat(rec.status()).as(rec.err()).isZero();
        browser.open(export(run, "command"));
        assertThat(browser.consoleErrors()).isEmpty();
        Map<String, Object> stats = browser.stats();
        // hello.c: main writes "main" and "start workers", each of 2 workers "worker" and 5 "work" slices, one
        // "all done" instant, 2 "handoff" arrows, and 10 "items done" counter samples in one series
        assertThat(num(stats.get("slices"))).isEqualTo(2 + 2 * (1 + 5));
        assertThat(num(stats.get("instants"))).isEqualTo(1);
        assertThat(num(stats.get("flows"))).isEqualTo(2);
        Path traceJson = run.resolve("trace.json");
        assertThat(num(stats.get("counters"))).isEqualTo(1 + 2L * depthTracks(traceJson, "free-queue depth")
                + 2L * depthTracks(traceJson, "ready-queue depth"));
        assertThat(depthTracks(traceJson, "ready-queue depth")).as("the three threads' queues").isEqualTo(3);
        assertThat(num(browser.js("return window.dfxViewer.counterSamples('items done')"))).isEqualTo(10);
        Map<String, Object> rows = map(stats.get("rowsByProcess"));
        assertThat(rows).hasSize(1);
        // a row per thread (main and 2 workers), named as the thread's name then its tid; hello.c names none, so
        // each carries the command's name
        assertThat(rows.values().iterator().next().toString()).matches("\\[hello \\d+, hello \\d+, hello \\d+\\]");
        browser.screenshot("command");
    }

    @Test
    void aPerfDataPageHasOneSliceFromEachSwitchAndAWakeupArrowPerWokenRun() throws Exception {
        Path data = Fixtures.perf("sched-switch-wakeup-a.data");
        browser.open(export(data, "perf"));
        assertThat(browser.consoleErrors()).isEmpty();
        // from perf script's own text: every switch ends one run and starts the next (a cpu's last run is drawn to
        // the end), and a wakeup binds to the woken pid's first run that starts at or after it
        Pattern line = Pattern.compile("\\[(\\d+)]\\s+(\\d+)\\.(\\d+): (sched:\\S+): (.*)$");
        Pattern nextPid = Pattern.compile("next_pid=(\\d+)");
        Pattern wokenPid = Pattern.compile("\\bpid=(\\d+)");
        Set<Integer> cpus = new TreeSet<>();
        Map<Integer, List<Long>> switchIns = new HashMap<>();
        List<long[]> wakeups = new ArrayList<>();
        long switches = 0;
        long first = Long.MAX_VALUE;
        for (String l : Files.readAllLines(Fixtures.perf("sched-switch-wakeup-a.script.txt"))) {
            Matcher m = line.matcher(l);
            if (!m.find()) {
                continue;
            }
            long ns = Long.parseLong(m.group(2)) * 1_000_000_000L + Long.parseLong(m.group(3)) * 1000;
            first = Math.min(first, ns);
            if (m.group(4).equals("sched:sched_switch")) {
                switches++;
                cpus.add(Integer.parseInt(m.group(1)));
                Matcher n = nextPid.matcher(m.group(5));
                assertThat(n.find()).isTrue();
                switchIns.computeIfAbsent(Integer.parseInt(n.group(1)), k -> new ArrayList<>()).add(ns);
            } else if (m.group(4).startsWith("sched:sched_wakeup")) {
                Matcher w = wokenPid.matcher(m.group(5));
                assertThat(w.find()).isTrue();
                wakeups.add(new long[] {ns, Long.parseLong(w.group(1))});
            }
        }
        long bound = wakeups.stream().filter(w -> switchIns.getOrDefault((int) w[1], List.of()).stream()
                .anyMatch(t -> t >= w[0] - 1000)).count(); // perf script prints µs: 1 µs of slack
        Map<String, Object> stats = browser.stats();
        assertThat(num(map(stats.get("slicesByCat")).get("sched"))).isEqualTo(switches);
        assertThat(((List<?>) map(stats.get("rowsByProcess")).get("CPUs"))).hasSize(cpus.size());
        assertThat(num(stats.get("wakeups"))).isEqualTo(bound).isPositive();

        // the time axis counts from the first event (perf's clock counts from boot), in units that fit the view:
        // each tick label is a time since that event inside the view, never the clock's absolute value
        Map<String, Object> axis = map(browser.js("return window.dfxViewer.axis()"));
        assertThat(axis.get("title")).isEqualTo("time since the first event");
        // the page's times count from the first event (originSec + originSubNs on perf's clock, checked below in
        // the range's text), so the axis' zero is that event at 0
        assertThat(((Number) axis.get("zero")).doubleValue()).isCloseTo(0.0,
                org.assertj.core.data.Offset.offset(1000.0));
        List<Double> view = range();
        double zero = ((Number) axis.get("zero")).doubleValue();
        List<?> labels = (List<?>) axis.get("labels");
        assertThat(labels).hasSizeGreaterThan(2);
        for (Object label : labels) {
            assertThat(nanoseconds((String) label)).as("%s", label).isBetween(view.get(0) - zero - 1,
                    view.get(1) - zero + 1);
        }
        assertThat((String) browser.js("return document.getElementById('range').textContent"))
                .contains("first event at " + first / 1_000_000_000L + "." + String.format("%06d",
                        first % 1_000_000_000L / 1000));
        browser.screenshot("perf");
        // a view from 0.2 s before the first event to 23 s after it: ticks of 2.32 s print whole seconds, and the
        // start, which rounds to zero, prints as 0 s, not -0 s
        browser.js("return window.dfxViewer.setRange(arguments[0] - 2e8, arguments[0] + 23e9)", zero);
        assertThat((String) browser.js("return document.getElementById('range').textContent"))
                .startsWith("view 0 s \u2013 23 s (23.2 s)");
    }

    /**
     * @return the depth tracks named {@code prefix (...)} of a run's recorded trace.json (each has two series on the
     *         page, min and max): the page must draw the same queues as the run's own trace
     */
    private static long depthTracks(Path traceJson, String prefix) throws IOException {
        Set<String> names = new HashSet<>();
        depthEvents(traceJson, prefix).forEach(e -> names.add(e.path("pid").asText() + " " + e.path("name").asText()));
        return names.size();
    }

    /** @return the counter points of the depth tracks named {@code prefix (...)} of a run's recorded trace.json */
    private static long depthPoints(Path traceJson, String prefix) throws IOException {
        return depthEvents(traceJson, prefix).size();
    }

    private static List<JsonNode> depthEvents(Path traceJson, String prefix) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(traceJson.toFile()).path("traceEvents").forEach(e -> {
            if (e.path("ph").asText().equals("C") && e.path("name").asText().startsWith(prefix + " (")) {
                out.add(e);
            }
        });
        return out;
    }
}
