package dev.dfx.bench.region;

import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cost of one 32-byte user event written by a C program through {@code include/dfx.h} into a region this JVM
 * hosts, side by side: (a) a timestamp the caller gives, (b) CLOCK_MONOTONIC read by dfx, (c) the TSC read by dfx
 * (converted at collection), with the clock's and the TSC's own cost, the no-op path (no {@code DFX_REGION}), and
 * with {@code --lttng} (d) an LTTng-UST tracepoint with the same payload ({@code lttng_tp.h}) recorded by a fresh
 * user-space session per run ({@link LttngSession}, discard mode), once with lttng's default channel and once with
 * the dfx lane's buffer memory.
 * Each variant runs as its own process ({@code dfx-bench/src/main/c/producer_cost.c}; the LTTng variant from a
 * second build linked with liblttng-ust, so the dfx variants do not carry LTTng's constructor threads) against a
 * fresh region ({@link RegionSpec}'s defaults but a user pool of 8 x 16 KiB, BLOCK) drained by a collector that
 * reads every record; the variants alternate round by round so a change in machine load hits all alike. Every run
 * is a flood: one thread writing events back to back. Prints, per variant, the median over rounds of each run's median, p99 and mean ns per event
 * (over batches), the lowest and highest run's median, the events written and lost (dfx: dropped + silent loss;
 * LTTng: the channel's discarded events) over all rounds, then the LTTng/dfx ratios and the targets. Refuses a run whose region does not reconcile
 * or whose LTTng trace does not account for every event (recorded + discarded = written). Reports numbers only.
 *
 * <pre>
 * java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.region.CProducerCost [--lttng] [ROUNDS] [EVENTS] [BATCH]
 * </pre>
 *
 * Run from the repository root (it compiles the C program with {@code scripts/cc.sh}'s compiler). {@code --lttng}
 * needs liblttng-ust-dev, lttng-tools, babeltrace2 and a running session daemon: {@code scripts/c-producer-bench.sh}
 * provides them and runs this. To compare another producer, add a variant to producer_cost.c and to
 * {@link #VARIANTS}.
 */
public final class CProducerCost {
    /** What records a variant's events: a dfx region, an LTTng session, or nothing (a reference cost). */
    enum Tracer { DFX, LTTNG, NONE }

    /**
     * A row of the table: its name, the producer_cost variant it runs, what records its events and, for LTTng, the
     * channel's sub-buffer size (bytes) and count (0: lttng's default).
     */
    record Variant(String name, String program, Tracer tracer, int subbufBytes, int subbufs) {
        Variant(String name, String program, Tracer tracer) {
            this(name, program, tracer, 0, 0);
        }
    }

    /**
     * The dfx lane's user pool: 8 buffers x 512 records x 32 B = 128 KiB, the region's default until it grew to
     * 64 KiB buffers, kept so the dfx runs stay comparable with earlier ones and with {@code lttng-128k}.
     */
    static final int LANE_BUFFERS = 8;
    static final int LANE_RECORDS = 512;

    /**
     * The dfx variants, LTTng with its default channel (4 x 512 KiB) and with the dfx lane's memory
     * ({@link #LANE_BUFFERS} x {@link #LANE_RECORDS} x 32 B = 128 KiB, as 8 x 16 KiB sub-buffers), the references.
     */
    static final List<Variant> VARIANTS = List.of(
            new Variant("given", "given", Tracer.DFX),
            new Variant("monotonic", "monotonic", Tracer.DFX),
            new Variant("tsc", "tsc", Tracer.DFX),
            new Variant("lttng", "lttng", Tracer.LTTNG),
            new Variant("lttng-128k", "lttng", Tracer.LTTNG, LANE_RECORDS * 32, LANE_BUFFERS),
            new Variant("clock", "clock", Tracer.NONE),
            new Variant("rdtsc", "rdtsc", Tracer.NONE),
            new Variant("noop", "given", Tracer.NONE));

    private static final Pattern LINE = Pattern.compile(
            "variant=(\\S+) events=(\\d+) batches=(\\d+) median_ns=([\\d.]+) p99_ns=([\\d.]+) mean_ns=([\\d.]+)"
                    + " enabled=(\\d)");
    private static final String SOURCES = "dfx-bench/src/main/c/";

    /** One variant's results: per-run {median, p99, mean} ns per event; events written and lost over all runs. */
    private static final class Tally {
        final List<double[]> runs = new ArrayList<>();
        long written;
        long lost;
    }

    private CProducerCost() {
    }

    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean lttng = rest.remove("--lttng");
        int rounds = rest.size() > 0 ? Integer.parseInt(rest.get(0)) : 5;
        long events = rest.size() > 1 ? Long.parseLong(rest.get(1)) : 2_000_000;
        int batch = rest.size() > 2 ? Integer.parseInt(rest.get(2)) : 100;
        Path work = Files.createTempDirectory("dfx-cost");
        Path exe = compile(work, false);
        Path lttngExe = lttng ? compile(work, true) : null;
        List<Variant> variants = VARIANTS.stream().filter(v -> lttng || v.tracer() != Tracer.LTTNG).toList();
        Map<String, Tally> results = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (Variant v : variants) {
                Tally t = results.computeIfAbsent(v.name(), k -> new Tally());
                switch (v.tracer()) {
                    case DFX -> runDfx(exe, v, events, batch, work, t);
                    case LTTNG -> runLttng(lttngExe, v, events, batch, work.resolve(v.name() + "-" + r), t);
                    case NONE -> t.runs.add(run(exe, v, events, batch, Map.of()).cost);
                }
            }
        }
        print(results, rounds, events, batch);
        if (lttngExe != null) {
            Files.delete(lttngExe);
        }
        Files.delete(exe);
        Files.deleteIfExists(work);
    }

    private static void runDfx(Path exe, Variant v, long events, int batch, Path work, Tally t)
            throws IOException, InterruptedException {
        RegionSpec spec = RegionSpec.builder().userPool(LANE_RECORDS, LANE_BUFFERS, RegionSpec.DEFAULT_LANES).build();
        try (RegionHost host = RegionHost.start(work.resolve("region.dfxr"), spec,
                b -> b.records().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0))) {
            t.runs.add(run(exe, v, events, batch, Map.of(RegionHost.ENV, host.file().toString())).cost);
            RegionStats s = host.stop();
            if (!s.reconciled()) {
                throw new IllegalStateException(v.name() + ": the region did not reconcile: " + s);
            }
            t.written += s.pipeline().total();
            t.lost += s.pipeline().dropped() + s.lanes().stream().mapToLong(x -> x.stats().silentLoss()).sum();
        }
        Files.deleteIfExists(work.resolve("region.dfxr"));
    }

    private static void runLttng(Path exe, Variant v, long events, int batch, Path trace, Tally t)
            throws IOException, InterruptedException {
        String session = "dfx-bench-" + ProcessHandle.current().pid() + "-" + trace.getFileName();
        try (LttngSession s = LttngSession.start(session, trace, v.subbufBytes(), v.subbufs())) {
            // Wait for the session daemon's registration however long the loaded machine takes (default 3 s): the
            // tracepoint must be on from the first event for the counts to reconcile.
            Run run = run(exe, v, events, batch, Map.of("LTTNG_UST_REGISTER_TIMEOUT", "-1"));
            LttngSession.Counts c = s.stop();
            if (c.recorded() + c.discarded() != run.written) {
                throw new IllegalStateException(v.name() + ": the trace holds " + c.recorded() + " events and "
                        + c.discarded() + " were discarded, but " + run.written + " were written");
            }
            t.runs.add(run.cost);
            t.written += run.written;
            t.lost += c.discarded();
        }
    }

    private static void print(Map<String, Tally> results, int rounds, long events, int batch) {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        System.out.printf(Locale.ROOT, "C producer cost, ns per 32-byte event: %d rounds x %d events, batches of %d, "
                + "load average %.2f, %d CPUs%n", rounds, events, batch, load,
                Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-10s %10s %15s %10s %10s %14s %10s%n", "variant", "median", "runs' medians",
                "p99", "mean", "events", "lost");
        for (Map.Entry<String, Tally> e : results.entrySet()) {
            Tally t = e.getValue();
            boolean traced = t.written > 0;
            double[] medians = t.runs.stream().mapToDouble(x -> x[0]).sorted().toArray();
            System.out.printf(Locale.ROOT, "%-10s %10.2f %15s %10.2f %10.2f %14s %10s%n", e.getKey(), median(t.runs, 0),
                    String.format(Locale.ROOT, "%.2f-%.2f", medians[0], medians[medians.length - 1]),
                    median(t.runs, 1), median(t.runs, 2), traced ? Long.toString(t.written) : "-",
                    traced ? Long.toString(t.lost) : "-");
        }
        Tally lttng = results.get("lttng");
        if (lttng != null) {
            StringBuilder ratios = new StringBuilder("LTTng-UST (default channel) / dfx, median (p99):");
            for (String v : List.of("given", "monotonic", "tsc")) {
                Tally d = results.get(v);
                ratios.append(String.format(Locale.ROOT, " %s %.2fx (%.2fx)", v,
                        median(lttng.runs, 0) / median(d.runs, 0), median(lttng.runs, 1) / median(d.runs, 1)));
            }
            System.out.println(ratios);
        }
        System.out.println(targets(results));
    }

    /** The targets against this run's medians; a report line, never an assertion. */
    private static String targets(Map<String, Tally> r) {
        double given = median(r.get("given").runs, 0);
        double monotonic = median(r.get("monotonic").runs, 0);
        double clock = median(r.get("clock").runs, 0);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "targets: (a) median %.2f ns <= 5: %s; (b) median %.2f ns <= clock %.2f + 10: %s", given,
                given <= 5 ? "met" : "NOT met", monotonic, clock, monotonic <= clock + 10 ? "met" : "NOT met"));
        Tally lttng = r.get("lttng");
        if (lttng != null) {
            double ratio = median(lttng.runs, 0) / median(r.get("tsc").runs, 0);
            long dfxLost = r.get("given").lost + r.get("monotonic").lost + r.get("tsc").lost;
            s.append(String.format(Locale.ROOT, "; (c) LTTng/tsc %.1fx >= 4: %s; loss: dfx %d (BLOCK), LTTng %d "
                    + "(discard, default channel), %d (discard, 128 KiB)", ratio, ratio >= 4 ? "met" : "NOT met",
                    dfxLost, lttng.lost, r.get("lttng-128k").lost));
        }
        return s.toString();
    }

    private static double median(List<double[]> runs, int i) {
        double[] v = runs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v[v.length / 2];
    }

    private static Path compile(Path work, boolean lttng) throws IOException, InterruptedException {
        String cc = Exec.run(List.of("bash", "scripts/cc.sh"), Map.of()).strip();
        Path exe = work.resolve(lttng ? "producer_cost_lttng" : "producer_cost");
        List<String> command = new ArrayList<>(List.of(cc, "-std=c11", "-O2", "-pthread", "-I", "include", "-o",
                exe.toString(), SOURCES + "producer_cost.c"));
        if (lttng) {
            // -I for TRACEPOINT_INCLUDE "./lttng_tp.h", which lttng's headers include from their own directory.
            command.addAll(List.of("-DDFX_BENCH_LTTNG", "-I", SOURCES, SOURCES + "lttng_tp.c", "-llttng-ust", "-ldl"));
        }
        Exec.run(command, Map.of());
        return exe;
    }

    /** One run's {median, p99, mean} ns per event, and the events it wrote (the untimed first batch included). */
    private record Run(double[] cost, long written) {
    }

    private static Run run(Path exe, Variant v, long events, int batch, Map<String, String> env)
            throws IOException, InterruptedException {
        String out = Exec.run(List.of(exe.toString(), v.program(), Long.toString(events), Integer.toString(batch)),
                env);
        Matcher m = LINE.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("producer_cost " + v.program() + " printed: " + out);
        }
        boolean expected = v.tracer() != Tracer.NONE;
        if (expected != m.group(7).equals("1")) {
            throw new IllegalStateException("producer_cost " + v.program() + ": enabled=" + m.group(7) + ", expected "
                    + (expected ? 1 : 0));
        }
        return new Run(new double[] {Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5)),
                Double.parseDouble(m.group(6))}, Long.parseLong(m.group(2)) + batch);
    }
}
