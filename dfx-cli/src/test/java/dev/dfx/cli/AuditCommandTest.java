package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx audit}: the shape of its table, matrix and JSON, checked against the runs' own run.json, and bad input
 * as one {@code dfx:} line with nothing on stdout.
 */
@Timeout(120)
class AuditCommandTest extends OneRecordedRun {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERDICT = "(short|at the edge|adequate|over-provisioned) \\((loss|free margin|ready margin"
            + "|headroom)\\)";
    static Path lossy;

    @TempDir
    Path tmp;

    @BeforeAll
    static void recordALossyRun() {
        lossy = shared.resolve("lossy");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-s", "swimlane", "--backpressure", "drop", "--pool",
                "swimlane.core-task=1x2", "-o", lossy.toString(), "--quiet");
        assertThat(r.status()).as(r.err()).isZero();
    }

    @Test
    void oneRunIsATableWithARowPerPoolThenTheAdvice() throws IOException {
        RunManifest m = ManifestFile.read(run);
        CliRun r = CliRun.dfx("audit", run.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).matches("dfx audit " + Pattern.quote(run.toString())
                + ": decoder, policy block, workload \\d+\\.\\d{3} s");
        assertThat(lines.get(1)).startsWith("pool").contains("λ buf/s", "W µs", "W max µs", " L ", "peak", "free",
                "ready", "drops", "stalls", "headroom", "verdict (decided by)");
        List<String> kinds = m.config().pools().stream().map(RunManifest.Pool::kind).toList();
        for (int i = 0; i < kinds.size(); i++) {
            String row = lines.get(2 + i);
            assertThat(row).startsWith(kinds.get(i) + " ");
            assertThat(row).matches(".* \\d+\\.\\dx  " + VERDICT);
        }
        assertThat(lines.get(2 + kinds.size())).isEqualTo("advice:");
        for (int i = 0; i < kinds.size(); i++) {
            assertThat(lines.get(3 + kinds.size() + i)).startsWith("  " + kinds.get(i) + " ")
                    .containsAnyOf(" keep ", " --pool " + kinds.get(i) + "=");
        }
        assertThat(r.out()).doesNotContain("lowest-free/peak-ready").doesNotContain("W unknown");
        assertThat(lines.getLast()).startsWith("thresholds: verdict by the weakest of stalls/drops, free margin, ready"
                + " margin, headroom; advice keeps 2x the need, at least 2 buffers per lane");
    }

    @Test
    void theLaneWhoseCollectorCallTookLongestIsNamed() throws IOException {
        RunManifest m = ManifestFile.read(run);
        String subsystem = null;
        RunManifest.Lane slowest = null;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                if (slowest == null || l.collectLongestNs() > slowest.collectLongestNs()) {
                    subsystem = s.name();
                    slowest = l;
                }
            }
        }
        assertThat(slowest.collectLongestNs()).as("a recording times its collector calls").isPositive();
        CliRun r = CliRun.dfx("audit", run.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains(String.format(Locale.ROOT,
                "slowest collector: %s lane %d (%s %d, %s): longest call %.3f ms, %.3f ms in all%n", subsystem,
                slowest.lane(), slowest.role(), slowest.instance(), slowest.kind(), slowest.collectLongestNs() / 1e6,
                slowest.collectNs() / 1e6));
        CliRun json = CliRun.dfx("audit", "--json", run.toString());
        JsonNode named = JSON.readTree(json.out()).at("/runs/0/slowest_collector");
        assertThat(named.get("subsystem").asText()).isEqualTo(subsystem);
        assertThat(named.get("lane").asInt()).isEqualTo(slowest.lane());
        assertThat(named.get("collect_longest_ns").asLong()).isEqualTo(slowest.collectLongestNs());
    }

    @Test
    void severalRunsStartWithTheCrossRunMatrix() throws IOException {
        RunManifest clean = ManifestFile.read(run);
        RunManifest lost = ManifestFile.read(lossy);
        CliRun r = CliRun.dfx("audit", run.toString(), lossy.toString());
        assertThat(r.status()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("lowest-free/peak-ready dropN (stallN under block) per subsystem");
        List<String> header = List.of(lines.get(1).trim().split("\\s+"));
        assertThat(header).containsExactlyElementsOf(columns(clean));
        assertThat(lines.get(2)).startsWith(run.toString() + " ");
        assertThat(lines.get(3)).startsWith(lossy.toString() + " ");
        // the lossy run recorded swimlane only: its other columns are '-'; its swimlane cell is run.json's numbers
        RunManifest.SubsystemReport s = lost.subsystem("swimlane");
        long lowest = s.pools().stream().mapToLong(RunManifest.PoolWatermark::minFreeDepth).min().orElseThrow();
        long peak = s.queues().stream().mapToLong(RunManifest.Queue::maxReadyDepth).max().orElseThrow();
        assertThat(s.dropped()).isPositive();
        assertThat(lines.get(3).substring(lossy.toString().length()).trim())
                .startsWith(lowest + "/" + peak + " drop" + s.dropped() + " ")
                .endsWith(" -");
        assertThat(lines.get(4)).isEmpty();
        assertThat(lines.get(5)).startsWith("dfx audit " + run + ": ");
        assertThat(r.out()).contains("dfx audit " + lossy + ": decoder, policy drop");
        assertThat(r.out()).containsPattern("\n  swimlane\\.core-task +--pool swimlane\\.core-task=\\d+x2 \\(costs ");
    }

    private static List<String> columns(RunManifest m) {
        List<String> c = new ArrayList<>(List.of("run"));
        m.subsystems().forEach(s -> c.add(s.name()));
        return c;
    }

    @Test
    void jsonHasEveryPoolWithItsNumbersVerdictAndAdvice() throws IOException {
        RunManifest lost = ManifestFile.read(lossy);
        CliRun r = CliRun.dfx("audit", "--json", run.toString(), lossy.toString());
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode root = JSON.readTree(r.out());
        assertThat(root.get("runs")).hasSize(2);
        JsonNode second = root.get("runs").get(1);
        assertThat(second.get("run").asText()).isEqualTo(lossy.toString());
        assertThat(second.get("policy").asText()).isEqualTo("drop");
        assertThat(second.get("matrix")).hasSize(1);
        assertThat(second.get("matrix").get(0).get("dropped").asLong()).isEqualTo(lost.subsystem("swimlane").dropped());
        assertThat(second.get("pools")).hasSize(lost.config().pools().size());
        JsonNode core = null;
        for (JsonNode p : second.get("pools")) {
            if (p.get("kind").asText().equals("swimlane.core-task")) {
                core = p;
            }
        }
        assertThat(core).isNotNull();
        RunManifest.PoolWatermark w = lost.subsystem("swimlane").pools().stream()
                .filter(p -> p.kind().equals("core-task")).findFirst().orElseThrow();
        assertThat(core.get("buffers_per_second").asDouble()).isEqualTo(w.flow().buffersPerSecond());
        assertThat(core.get("recycle_mean_ns").asLong()).isEqualTo(w.flow().recycleMeanNs());
        assertThat(core.get("min_free_depth").asLong()).isEqualTo(w.minFreeDepth());
        assertThat(core.get("buffers_per_lane").asInt()).isEqualTo(1);
        assertThat(core.get("verdict").asText()).isEqualTo("short");
        assertThat(core.get("decided_by").asText()).isEqualTo("stalls/drops");
        assertThat(core.get("dimensions").get("stalls/drops").asText()).isEqualTo("short");
        assertThat(core.get("advice").get("action").asText()).isEqualTo("grow");
        assertThat(core.get("advice").get("option").asText()).matches("--pool swimlane\\.core-task=\\d+x2");
        assertThat(core.get("advice").get("memory_delta_bytes").asLong()).isPositive();
    }

    @Test
    void aDirectoryWithoutRunJsonIsOneLineAndNothingElse() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CliRun r = CliRun.dfx("audit", run.toString(), empty.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).as("nothing printed for the good run either").isEmpty();
        assertThat(r.err()).isEqualTo("dfx: " + empty + ": an empty directory; expected a run directory written by dfx"
            + " record, or a perf.data file" + System.lineSeparator());
        Path missing = tmp.resolve("nowhere");
        CliRun m = CliRun.dfx("audit", "--json", missing.toString());
        assertThat(m.status()).isEqualTo(1);
        assertThat(m.out()).isEmpty();
        assertThat(m.err()).isEqualTo("dfx: " + missing + ": no such run directory; expected one written by dfx record" + System.lineSeparator());
        // a link that leads nowhere is named as such, and a loop on the way gets the system's reason
        Path loop = Files.createSymbolicLink(tmp.resolve("loop"), tmp.resolve("loop"));
        Path gone = Files.createSymbolicLink(tmp.resolve("gone"), tmp.resolve("removed"));
        for (Path link : List.of(loop, gone)) {
            CliRun l = CliRun.dfx("audit", link.toString());
            assertThat(l.status()).isEqualTo(1);
            assertThat(l.err()).isEqualTo("dfx: " + link + (link == loop
                ? ": a symbolic link that loops (too many levels of symbolic links)"
                : ": a symbolic link whose target is gone") + "; expected a run directory written by dfx record"
                + System.lineSeparator());
        }
        CliRun inside = CliRun.dfx("audit", loop.resolve("run").toString());
        assertThat(inside.status()).isEqualTo(1);
        assertThat(inside.err()).isEqualTo("dfx: " + loop.resolve("run") + ": Too many levels of symbolic links;"
            + " expected a run directory written by dfx record" + System.lineSeparator());
        CliRun none = CliRun.dfx("audit");
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).startsWith("dfx: audit: Missing required parameter: 'RUN'");
    }

    @Test
    void aRunJsonWithoutFlowSaysWIsUnknown() throws IOException {
        ObjectNode m = (ObjectNode) JSON.readTree(run.resolve("run.json").toFile());
        for (JsonNode s : m.get("subsystems")) {
            for (JsonNode p : s.get("pools")) {
                ((ObjectNode) p).remove(List.of("flow", "free_queue_slots"));
            }
        }
        Path old = tmp.resolve("old");
        try (Stream<Path> s = Files.walk(run)) { // the chunk files too: audit checks them as report does
            for (Path p : s.toList()) {
                Files.copy(p, old.resolve(run.relativize(p).toString()));
            }
        }
        JSON.writeValue(old.resolve("run.json").toFile(), m);
        CliRun r = CliRun.dfx("audit", old.toString());
        assertThat(r.status()).as(r.err()).isZero();
        List<String> rows = r.out().lines().filter(l -> l.startsWith("swimlane.core-task ")).toList();
        assertThat(rows).hasSize(1);
        assertThat(rows.getFirst().split("\\s+")).as("λ, W, W max and L").containsSubsequence("?", "?", "?", "?");
        assertThat(r.out()).contains("W unknown (?): run.json has no flow (written before dfx measured it); read from"
                + " the watermarks only");
    }

    @Test
    void dfxHelpListsAudit() {
        CliRun r = CliRun.dfx("--help");
        assertThat(r.out()).containsPattern("\n  audit +Capacity audit: Little's law per pool, margins, verdicts, advice\\.");
    }
}
