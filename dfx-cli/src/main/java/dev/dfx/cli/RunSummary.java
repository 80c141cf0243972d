package dev.dfx.cli;

import dev.dfx.error.Count;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.RunManifest;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The summary of a run that {@code dfx record} prints at the end and {@code dfx report} reads back from run.json:
 * per subsystem total / collected / dropped, silent loss, stalls, watermarks (lowest free-queue depth, highest
 * ready-queue backlog) and records/s, then the stalled lanes, the outputs and the trace's path. As text (a table)
 * or as JSON. Stateless.
 */
final class RunSummary {
    /**
     * The mapper of {@code --json}, made on its first use: the text summary, which every {@code dfx record} prints,
     * needs none, and making one (its classes loaded and initialised) cost a cold {@code dfx record} tens of
     * milliseconds on its main thread after the recording.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    }

    private RunSummary() {
    }

    /**
     * @return the exit status that a run's manifest means: 0 ok, 1 failed, not finished or with silent loss,
     *         130 interrupted (as a shell reports a process ended by SIGINT)
     */
    static int exitStatus(RunManifest m) {
        return switch (m.status()) {
            case "ok" -> m.subsystems().stream().allMatch(RunManifest.SubsystemReport::reconciled) ? 0 : 1;
            case "interrupted" -> 130;
            default -> 1;
        };
    }

    /**
     * The status line of {@code dfx record --quiet}, which prints no summary: a recording that did not succeed must
     * still say so, once.
     *
     * @param said the failure a line already gave while recording, as the reason words it (a chunk file that could not
     *             be written), or null
     * @return {@code recording RUN failed: REASON} for status failed ({@code recording RUN failed as the line above
     *         says; REST} when the reason begins with {@code said}, which is not repeated), {@code recording RUN lost N
     *         records silently} for a recording whose counts do not reconcile ({@link #exitStatus} 1 either way), or
     *         null when it succeeded or was interrupted (its exit status says that)
     */
    static String quietLine(Path runDir, RunManifest m, String said) {
        if (m.status().equals("failed")) {
            String reason = m.reason();
            if (reason != null && said != null && reason.startsWith(said)) {
                String rest = reason.substring(said.length()).replaceFirst("^; ", "");
                return "recording " + runDir + " failed as the line above says" + (rest.isEmpty() ? "" : "; " + rest);
            }
            return "recording " + runDir + " failed: " + (reason == null ? "no reason recorded" : reason);
        }
        if (exitStatus(m) == 1) {
            long silent = m.subsystems().stream().mapToLong(RunManifest.SubsystemReport::silentLoss).sum();
            return "recording " + runDir + " " + (m.status().equals("ok") ? "lost " + silent + " records silently"
                    : "ended with status " + m.status() + (m.reason() == null ? "" : ": " + m.reason()));
        }
        return null;
    }

    /** Prints the table. */
    static void text(Path runDir, RunManifest m, PrintWriter out) {
        RunManifest.Workload w = m.workload();
        ProgramReport p = m.program();
        if (p == null) {
            out.printf(Locale.ROOT, "dfx run %s: %s, %d tasks, status %s%s%s%n", runDir, w.name(), w.tasks(),
                    m.status(), m.reason() == null ? "" : " (" + m.reason() + ")", loss(m));
            out.printf(Locale.ROOT, "workload %.3f s, recording %.3f s, check %s, policy %s%n", w.wallNs() / 1e9,
                    m.wallNs() / 1e9, w.check(), m.config().policy());
        } else {
            out.printf(Locale.ROOT, "dfx run %s: %s, status %s%s%s%n", runDir, String.join(" ", p.command()),
                    m.status(), m.reason() == null ? "" : " (" + m.reason() + ")", loss(m));
            out.printf(Locale.ROOT, "command (pid %d) %s, %.3f s with its children; recording %.3f s, policy %s%n",
                    p.pid(), p.ended() == null ? "still running" : p.ended(), p.wallNs() / 1e9, m.wallNs() / 1e9,
                    m.config().policy());
        }
        out.printf(Locale.ROOT, "%-9s %11s %11s %9s %7s %7s %9s %8s %9s %11s%n", "subsystem", "total", "collected",
                "dropped", "silent", "stalls", "stall_ms", "min_free", "max_ready", "records/s");
        long[] sum = new long[5];
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            out.printf(Locale.ROOT, "%-9s %11d %11d %9d %7d %7d %9.3f %8d %9d %11.0f%n", s.name(), s.total(),
                    s.collected(), s.dropped(), s.silentLoss(), s.stalls().count(), s.stalls().totalNs() / 1e6,
                    minFree(s), maxReady(s), s.recordsPerSecond());
            sum[0] += s.total();
            sum[1] += s.collected();
            sum[2] += s.dropped();
            sum[3] += s.silentLoss();
            sum[4] += s.stalls().count();
        }
        out.printf(Locale.ROOT, "%-9s %11d %11d %9d %7d %7d %9s %8s %9s %11.0f%n", "all", sum[0], sum[1], sum[2],
                sum[3], sum[4], "", "", "", w.wallNs() > 0 ? sum[1] * 1e9 / w.wallNs() : 0.0);
        if (p != null) {
            producers(p, out);
        }
        List<String> stalled = stalledLanes(m);
        out.println(stalled.isEmpty() ? "stalled lanes: none" : "stalled lanes:");
        stalled.forEach(l -> out.println("  " + l));
        List<String> files = new ArrayList<>();
        for (OutputFile o : m.outputs()) {
            files.add(o.path() + (o.written() ? "" : " (not written: " + o.note() + ")"));
        }
        out.println("outputs: " + String.join(", ", files));
        Path trace = trace(runDir, m);
        out.println("trace: " + (trace == null ? "none" : trace));
        out.flush();
    }

    /** Prints one line per process that wrote into the region, and one per lane that did not end well. */
    private static void producers(ProgramReport p, PrintWriter out) {
        out.printf(Locale.ROOT, "processes: %d%s%n", p.processes().size(), p.unlanedDropped() > 0
                ? ", " + Count.of(p.unlanedDropped(), "record") + " dropped by threads that found no free lane"
                        + " (--lanes)" : "");
        for (ProgramReport.Producer proc : p.processes()) {
            out.printf(Locale.ROOT, "  pid %d%s: %d threads, total %d, collected %d, dropped %d, %s%n", proc.pid(),
                    proc.name() == null ? "" : " (" + proc.name() + ")", proc.threads().size(), proc.total(),
                    proc.collected(), proc.dropped(), proc.state());
            for (ProgramReport.ThreadLane t : proc.threads()) {
                if (!t.status().equals("ok")) {
                    String why = t.reason() == null ? t.status()
                            : t.reason().startsWith(t.status()) ? t.reason() : t.status() + ": " + t.reason();
                    out.printf(Locale.ROOT, "    tid %d lane %d: %s%n", t.tid(), t.lane(), why);
                }
            }
        }
    }

    /** Prints the summary as one JSON object. */
    static void json(Path runDir, RunManifest m, PrintWriter out) throws java.io.IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run_dir", runDir.toString());
        root.put("status", m.status());
        root.put("reason", m.reason());
        root.put("workload", m.workload().name());
        root.put("tasks", m.workload().tasks());
        root.put("check", m.workload().check());
        root.put("workload_wall_ns", m.workload().wallNs());
        root.put("wall_ns", m.wallNs());
        root.put("policy", m.config().policy());
        List<Map<String, Object>> subs = new ArrayList<>();
        long collected = 0;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("name", s.name());
            e.put("total", s.total());
            e.put("collected", s.collected());
            e.put("dropped", s.dropped());
            e.put("dropped_by_cause", s.droppedByCause());
            e.put("silent_loss", s.silentLoss());
            e.put("reconciled", s.reconciled());
            e.put("stalls", s.stalls().count());
            e.put("stall_ns", s.stalls().totalNs());
            e.put("backstop_expiries", s.backstopExpiries());
            e.put("min_free_depth", minFree(s));
            e.put("max_ready_depth", maxReady(s));
            e.put("records_per_second", s.recordsPerSecond());
            subs.add(e);
            collected += s.collected();
        }
        root.put("subsystems", subs);
        if (m.program() != null) {
            root.put("command", m.program().command());
            root.put("exit_status", m.program().exitStatus());
            root.put("processes", m.program().processes());
        }
        root.put("records_per_second", m.workload().wallNs() > 0 ? collected * 1e9 / m.workload().wallNs() : 0.0);
        root.put("stalled_lanes", stalledLanes(m));
        root.put("outputs", m.outputs());
        Path trace = trace(runDir, m);
        root.put("trace", trace == null ? null : trace.toString());
        out.println(Json.MAPPER.writeValueAsString(root));
        out.flush();
    }

    /**
     * @return {@code , N of T records dropped} when any were, naming those that {@code block} lost to backstop
     *         expiries (a gate wait that ran out degrades its lane to dropping until the host catches up), those
     *         of a program's threads that found no free lane, those its virtual threads wrote after its exit
     *         began and those still being written when stop's bounded wait for the writers ended (cause
     *         {@code stopped}), so that "status ok" never hides a loss; empty when nothing was dropped
     */
    private static String loss(RunManifest m) {
        long total = 0;
        long dropped = 0;
        long gates = 0;
        long unlaned = 0;
        long afterExit = 0;
        long stopped = 0;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            total += s.total();
            dropped += s.dropped();
            unlaned += s.droppedByCause().getOrDefault(ProgramReport.UNLANED, 0L);
            afterExit += s.droppedByCause().getOrDefault(ProgramReport.AFTER_EXIT, 0L);
            stopped += s.droppedByCause().getOrDefault("stopped", 0L);
            for (String cause : List.of("push_gate", "pop_gate", "degraded")) {
                gates += s.droppedByCause().getOrDefault(cause, 0L);
            }
        }
        if (dropped == 0) {
            return "";
        }
        boolean block = m.config().policy().equals("block");
        List<String> why = new ArrayList<>();
        if (block && gates > 0) {
            why.add(gates + " after backstop expiries");
        }
        if (unlaned > 0) {
            why.add(unlaned + " by threads that found no free lane: --lanes");
        }
        if (afterExit > 0) {
            why.add(afterExit + " by virtual threads after the program's exit began: "
                    + ProgramReport.AFTER_EXIT_ADVICE);
        }
        if (stopped > 0) {
            why.add(stopped + " still being written when stop's wait for the writers (one backstop) ended");
        }
        return String.format(Locale.ROOT, ", %d of %d records dropped%s", dropped, total,
                why.isEmpty() ? "" : " (" + String.join("; ", why) + ")");
    }

    private static long minFree(RunManifest.SubsystemReport s) {
        return s.pools().stream().mapToLong(RunManifest.PoolWatermark::minFreeDepth).min().orElse(0);
    }

    private static long maxReady(RunManifest.SubsystemReport s) {
        return s.queues().stream().mapToLong(RunManifest.Queue::maxReadyDepth).max().orElse(0);
    }

    /**
     * @return one line per lane that stalled: subsystem, kind, thread (a program's by pid, tid and name), count, total
     *         and longest
     */
    private static List<String> stalledLanes(RunManifest m) {
        List<String> lines = new ArrayList<>();
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                if (l.stalls().count() > 0 || l.backstopExpiries() > 0) {
                    String writer = m.program() != null && s.name().equals(ProgramReport.SUBSYSTEM)
                            ? s.name() + " " + m.program().writer(l.instance())
                            : s.name() + " " + l.kind() + " " + l.role() + " " + l.instance();
                    lines.add(String.format(Locale.ROOT, "%s: %d stalls, %.3f ms in all, longest %.3f ms%s",
                            writer, l.stalls().count(), l.stalls().totalNs() / 1e6,
                            l.stalls().longestNs() / 1e6,
                            l.backstopExpiries() > 0 ? ", " + l.backstopExpiries() + " backstop expiries" : ""));
                }
            }
        }
        return lines;
    }

    private static Path trace(Path runDir, RunManifest m) {
        return m.outputs().stream().anyMatch(o -> o.path().equals(RunTraceExporter.FILE) && o.written())
                ? runDir.resolve(RunTraceExporter.FILE) : null;
    }
}
