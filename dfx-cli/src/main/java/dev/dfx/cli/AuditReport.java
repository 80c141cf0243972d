package dev.dfx.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.dfx.audit.Advice;
import dev.dfx.audit.AuditThresholds;
import dev.dfx.audit.Bytes;
import dev.dfx.audit.Dimension;
import dev.dfx.audit.LaneShortage;
import dev.dfx.audit.PoolAudit;
import dev.dfx.audit.PoolObservation;
import dev.dfx.audit.RunAudit;
import dev.dfx.error.Count;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.RunManifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Prints {@link RunAudit}s for {@code dfx audit}: as text (the cross-run matrix when there are several runs, then
 * one table and the advice per run) or as one JSON object ({@code runs[]}: {@code run}, {@code workload},
 * {@code policy}, {@code matrix[]}, {@code pools[]}, {@code lanes}: a program's records lost for want of lane slots,
 * or null). Units: λ in buffers/s, W in µs (text) or ns (JSON), margins
 * and headroom as fractions (JSON) or percent and factor (text). Stateless.
 */
final class AuditReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The dimensions a verdict reads, in their printed words: {@code stalls/drops, free margin, ...}. */
    private static final String DIMENSIONS =
            Stream.of(Dimension.values()).map(Dimension::word).collect(Collectors.joining(", "));

    private AuditReport() {
    }

    /** Prints the matrix (several runs), then each run's table and advice. */
    static void text(List<RunAudit> audits, List<RunManifest> manifests, PrintWriter out) {
        if (audits.size() > 1) {
            matrix(audits, out);
        }
        for (int i = 0; i < audits.size(); i++) {
            table(audits.get(i), manifests.get(i), out);
        }
        out.printf(Locale.ROOT, "thresholds: verdict by the weakest of %s; advice keeps %.0fx the need, at least %d"
                + " buffers per lane; it grows only a pool that stalled or dropped and shrinks only one at %.0fx the"
                + " need or more%n", DIMENSIONS, AuditThresholds.SAFETY, AuditThresholds.MIN_BUFFERS,
                AuditThresholds.OVER_HEADROOM);
        out.flush();
    }

    /** The seed's §4.1 matrix: a row per run, a column per subsystem, {@code lowest-free/peak-ready dropN}. */
    private static void matrix(List<RunAudit> audits, PrintWriter out) {
        Set<String> subsystems = new LinkedHashSet<>();
        audits.forEach(a -> a.cells().forEach(c -> subsystems.add(c.subsystem())));
        int runWidth = Math.max(3, audits.stream().mapToInt(a -> a.run().length()).max().orElse(3));
        out.println("lowest-free/peak-ready dropN (stallN under block) per subsystem");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-" + runWidth + "s", "run"));
        subsystems.forEach(s -> head.append(String.format(Locale.ROOT, "  %-22s", s)));
        out.println(head.toString().stripTrailing());
        for (RunAudit a : audits) {
            Map<String, RunAudit.Cell> cells = new LinkedHashMap<>();
            a.cells().forEach(c -> cells.put(c.subsystem(), c));
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-" + runWidth + "s", a.run()));
            for (String s : subsystems) {
                RunAudit.Cell c = cells.get(s);
                row.append(String.format(Locale.ROOT, "  %-22s", c == null ? "-" : cell(c)));
            }
            out.println(row.toString().stripTrailing());
        }
        out.println();
    }

    private static String cell(RunAudit.Cell c) {
        return c.lowestFree() + "/" + c.peakReady() + " drop" + c.dropped()
                + (c.stalls() > 0 ? " stall" + c.stalls() : "");
    }

    private static void table(RunAudit a, RunManifest m, PrintWriter out) {
        out.printf(Locale.ROOT, "dfx audit %s: %s, policy %s, workload %.3f s%n", a.run(), m.workload().name(),
                m.config().policy(), m.workload().wallNs() / 1e9);
        out.printf(Locale.ROOT, "%-22s %5s %11s %10s %9s %9s %6s %4s %5s %5s %8s %6s %8s  %s%n", "pool", "lanes",
                "buffers", "λ buf/s", "W µs", "W max µs", "L", "peak", "free", "ready", "drops", "stalls",
                "headroom", "verdict (decided by)");
        for (PoolAudit p : a.pools()) {
            PoolObservation o = p.pool();
            out.printf(Locale.ROOT, "%-22s %5d %11s %10s %9s %9s %6s %4d %4.0f%% %4.0f%% %8d %6d %7.1fx  %s (%s)%n",
                    o.kind(), o.lanes(), o.buffersPerLane() + "x" + o.recordsPerBuffer(),
                    p.buffersPerSecond() == null ? "?" : String.format(Locale.ROOT, "%.0f", p.buffersPerSecond()),
                    micros(p.recycleMeanNs()), micros(p.recycleMaxNs()),
                    p.littleL() == null ? "?" : String.format(Locale.ROOT, "%.2f", p.littleL()), p.peakInFlight(),
                    100 * p.freeMargin(), 100 * p.readyMargin(), o.dropped(), o.stalls(), p.headroom(),
                    p.verdict().word(), p.decidedBy().word());
        }
        if (a.pools().stream().anyMatch(p -> p.recycleMeanNs() == null)) {
            out.println("W unknown (?): run.json has no flow (written before dfx measured it); read from the"
                    + " watermarks only");
        }
        out.println("advice:");
        for (PoolAudit p : a.pools()) {
            Advice v = p.advice();
            out.printf(Locale.ROOT, "  %-22s %s%n", p.pool().kind(), switch (v.action()) {
                case KEEP -> "keep " + v.buffersPerLane() + "x" + v.recordsPerBuffer() + " (" + v.reason() + ")";
                case RATE_LIMITED, REFILL_LIMITED -> v.reason();
                case GROW, SHRINK -> v.option() + " (" + (v.memoryDeltaBytes() < 0 ? "saves " : "costs ")
                        + Bytes.format(Math.abs(v.memoryDeltaBytes())) + "; " + v.reason() + ")";
            });
        }
        if (a.lanes() != null) {
            out.printf(Locale.ROOT, "  %-22s %s (%s)%n", "lanes", a.lanes().option(), a.lanes().reason());
        }
        long afterExit = afterExit(m);
        if (afterExit > 0) {
            out.printf(Locale.ROOT, "  %-22s %s%n", "after exit", afterExitReason(afterExit));
        }
        slowestCollector(m).ifPresent(s -> out.printf(Locale.ROOT,
                "slowest collector: %s lane %d (%s %d, %s): longest call %.3f ms, %.3f ms in all%n", s.subsystem(),
                s.lane().lane(), s.lane().role(), s.lane().instance(), s.lane().kind(),
                s.lane().collectLongestNs() / 1e6, s.lane().collectNs() / 1e6));
        out.println();
    }

    /** A lane of a run with the subsystem it belongs to. */
    record SubsystemLane(String subsystem, RunManifest.Lane lane) {
    }

    /**
     * @return the lane whose single collector call took longest (the one a slow or wedged collector held back), or
     *         empty when run.json predates per-lane collector times or no lane's collector ran
     */
    static Optional<SubsystemLane> slowestCollector(RunManifest m) {
        return m.subsystems().stream()
                .flatMap(s -> s.lanes().stream().map(l -> new SubsystemLane(s.name(), l)))
                .filter(l -> l.lane().collectLongestNs() != null && l.lane().collectLongestNs() > 0
                        && l.lane().collectNs() != null)
                .max(Comparator.comparingLong(l -> l.lane().collectLongestNs()));
    }

    /**
     * Prints {@code {"runs": [...]}}, and {@code "unfinished": [...]} when {@code unfinished} is not empty.
     *
     * @param unfinished what the chunk files of each run that did not finish hold ({@link ChunkHoldings#json}): such a
     *                   run has no counts to audit
     */
    static void json(List<RunAudit> audits, List<RunManifest> manifests, List<Map<String, Object>> unfinished,
                     PrintWriter out) throws IOException {
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int i = 0; i < audits.size(); i++) {
            runs.add(run(audits.get(i), manifests.get(i)));
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("runs", runs);
        if (!unfinished.isEmpty()) {
            root.put("unfinished", unfinished);
        }
        out.println(JSON.writeValueAsString(root));
        out.flush();
    }

    /**
     * @return one run of {@code dfx audit --json}: {@code run}, {@code workload}, {@code policy}, {@code matrix[]},
     *         {@code pools[]}, {@code lanes}, {@code slowest_collector} (also the audit of the HTML viewer's page)
     */
    static Map<String, Object> run(RunAudit a, RunManifest m) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("run", a.run());
        r.put("workload", m.workload().name());
        r.put("policy", m.config().policy());
        List<Map<String, Object>> cells = new ArrayList<>();
        for (RunAudit.Cell c : a.cells()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("subsystem", c.subsystem());
            e.put("lowest_free", c.lowestFree());
            e.put("peak_ready", c.peakReady());
            e.put("dropped", c.dropped());
            e.put("stalls", c.stalls());
            e.put("verdict", c.verdict().word());
            cells.add(e);
        }
        r.put("matrix", cells);
        r.put("pools", a.pools().stream().map(AuditReport::pool).toList());
        r.put("lanes", a.lanes() == null ? null : lanes(a.lanes()));
        long afterExit = afterExit(m);
        r.put("after_exit", afterExit == 0 ? null : Map.of("dropped", afterExit, "reason", afterExitReason(afterExit)));
        r.put("slowest_collector", slowestCollector(m).map(sl -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("subsystem", sl.subsystem());
            e.put("lane", sl.lane().lane());
            e.put("role", sl.lane().role());
            e.put("instance", sl.lane().instance());
            e.put("kind", sl.lane().kind());
            e.put("collect_longest_ns", sl.lane().collectLongestNs());
            e.put("collect_ns", sl.lane().collectNs());
            return e;
        }).orElse(null));
        return r;
    }

    /**
     * @return the records a program's virtual threads wrote after its exit began (the {@code user} subsystem's
     *         {@value ProgramReport#AFTER_EXIT} drops): a loss no pool or lane count cures, so the audit names it
     *         beside its advice instead of leaving the pools' drops unexplained; 0 when none
     */
    private static long afterExit(RunManifest m) {
        RunManifest.SubsystemReport s = m.subsystem(ProgramReport.SUBSYSTEM);
        return s == null ? 0 : s.droppedByCause().getOrDefault(ProgramReport.AFTER_EXIT, 0L);
    }

    private static String afterExitReason(long dropped) {
        return Count.of(dropped, "record") + " written by virtual threads after the program's exit began (no pool or"
                + " lane helps: "
                + ProgramReport.AFTER_EXIT_ADVICE + ")";
    }

    private static Map<String, Object> lanes(LaneShortage l) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("subsystem", l.subsystem());
        e.put("lanes", l.lanes());
        e.put("dropped", l.dropped());
        e.put("option", l.option());
        e.put("reason", l.reason());
        return e;
    }

    private static Map<String, Object> pool(PoolAudit p) {
        PoolObservation o = p.pool();
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("kind", o.kind());
        e.put("subsystem", o.subsystem());
        e.put("lanes", o.lanes());
        e.put("buffers_per_lane", o.buffersPerLane());
        e.put("records_per_buffer", o.recordsPerBuffer());
        e.put("record_size", o.recordSize());
        e.put("buffers_per_second", p.buffersPerSecond());
        e.put("recycle_mean_ns", p.recycleMeanNs());
        e.put("recycle_max_ns", p.recycleMaxNs());
        e.put("little_l", p.littleL());
        e.put("peak_in_flight", p.peakInFlight());
        e.put("need", p.need());
        e.put("headroom", p.headroom());
        e.put("free_queue_capacity", p.freeQueueCapacity());
        e.put("min_free_depth", o.minFreeDepth());
        e.put("free_margin", p.freeMargin());
        e.put("ready_queue_capacity", o.readyQueueCapacity());
        e.put("max_ready_depth", o.maxReadyDepth());
        e.put("ready_margin", p.readyMargin());
        e.put("dropped", o.dropped());
        e.put("stalls", o.stalls());
        Map<String, Object> dims = new LinkedHashMap<>();
        p.byDimension().forEach((d, v) -> dims.put(d.word(), v.word()));
        e.put("dimensions", dims);
        e.put("verdict", p.verdict().word());
        e.put("decided_by", p.decidedBy().word());
        if (p.rateLimit() != null) {
            e.put("rate_limit", Map.of("demand_bytes_per_second", p.rateLimit().demandBytesPerSecond(),
                    "drain_bytes_per_second", p.rateLimit().drainBytesPerSecond()));
        }
        Advice v = p.advice();
        Map<String, Object> adv = new LinkedHashMap<>();
        adv.put("action", v.action().name().toLowerCase(Locale.ROOT));
        adv.put("option", v.option());
        adv.put("buffers_per_lane", v.buffersPerLane());
        adv.put("records_per_buffer", v.recordsPerBuffer());
        adv.put("memory_delta_bytes", v.memoryDeltaBytes());
        adv.put("reason", v.reason());
        e.put("advice", adv);
        return e;
    }

    private static String micros(Long ns) {
        return ns == null ? "?" : String.format(Locale.ROOT, "%.1f", ns / 1e3);
    }
}
