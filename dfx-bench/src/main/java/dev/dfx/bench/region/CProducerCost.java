package dev.dfx.bench.region;

import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cost of one 32-byte user event written by a C program through {@code include/dfx.h} into a region this JVM
 * hosts, side by side: (a) a timestamp the caller gives, (b) CLOCK_MONOTONIC read by dfx, (c) the TSC read by dfx
 * (converted at collection), with the clock's and the TSC's own cost, and the no-op path (no {@code DFX_REGION}).
 * Each variant runs as its own process ({@code dfx-bench/src/main/c/producer_cost.c}) against a fresh region
 * (default {@link RegionSpec}, BLOCK) drained by a collector that reads every record; the variants alternate
 * round by round so a change in machine load hits all alike. Prints, per variant, the median over rounds of each
 * run's median and p99 ns per event (over batches), and the records lost (dropped + silent loss) over all rounds.
 * Refuses a run whose region does not reconcile. Reports numbers only.
 *
 * <pre>java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.region.CProducerCost [ROUNDS] [EVENTS] [BATCH]</pre>
 *
 * Run from the repository root (it compiles the C program with {@code scripts/cc.sh}'s compiler). To compare
 * another producer (e.g. an LTTng-UST tracepoint), add a variant to producer_cost.c and its name to
 * {@link #VARIANTS}.
 */
public final class CProducerCost {
    /** Variant name, and whether it runs with a region. */
    static final Map<String, Boolean> VARIANTS = new LinkedHashMap<>();

    static {
        VARIANTS.put("given", true);
        VARIANTS.put("monotonic", true);
        VARIANTS.put("tsc", true);
        VARIANTS.put("clock", false);
        VARIANTS.put("rdtsc", false);
        VARIANTS.put("noop", false);
    }

    private static final Pattern LINE = Pattern.compile(
            "variant=(\\S+) events=(\\d+) batches=(\\d+) median_ns=([\\d.]+) p99_ns=([\\d.]+) mean_ns=([\\d.]+) enabled=(\\d)");

    private CProducerCost() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        long events = args.length > 1 ? Long.parseLong(args[1]) : 2_000_000;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        Path work = Files.createTempDirectory("dfx-cost");
        Path exe = compile(work);
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        Map<String, long[]> loss = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, Boolean> v : VARIANTS.entrySet()) {
                String variant = v.getKey().equals("noop") ? "given" : v.getKey();
                double[] m;
                long[] l = loss.computeIfAbsent(v.getKey(), k -> new long[2]);
                if (v.getValue()) {
                    try (RegionHost host = RegionHost.start(work.resolve("region.dfxr"), RegionSpec.builder().build(),
                            b -> b.records().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0))) {
                        m = run(exe, variant, events, batch, host.file());
                        RegionStats s = host.stop();
                        if (!s.reconciled()) {
                            throw new IllegalStateException(v.getKey() + ": the region did not reconcile: " + s);
                        }
                        l[0] += s.pipeline().total();
                        l[1] += s.pipeline().dropped() + s.lanes().stream().mapToLong(x -> x.stats().silentLoss()).sum();
                    }
                } else {
                    m = run(exe, variant, events, batch, null);
                }
                results.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(m);
            }
        }
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        System.out.printf(Locale.ROOT, "C producer cost, ns per 32-byte event: %d rounds x %d events, batches of %d, "
                + "load average %.2f, %d CPUs%n", rounds, events, batch, load,
                Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-10s %10s %10s %10s %14s %10s%n", "variant", "median", "p99", "mean",
                "records", "lost");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            long[] l = loss.get(e.getKey());
            System.out.printf(Locale.ROOT, "%-10s %10.2f %10.2f %10.2f %14s %10s%n", e.getKey(),
                    median(e.getValue(), 0), median(e.getValue(), 1), median(e.getValue(), 2),
                    VARIANTS.get(e.getKey()) ? Long.toString(l[0]) : "-",
                    VARIANTS.get(e.getKey()) ? Long.toString(l[1]) : "-");
        }
    }

    private static double median(List<double[]> runs, int i) {
        double[] v = runs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v[v.length / 2];
    }

    private static Path compile(Path work) throws IOException, InterruptedException {
        String cc = exec(List.of("bash", "scripts/cc.sh"), null).strip();
        Path exe = work.resolve("producer_cost");
        exec(List.of(cc, "-std=c11", "-O2", "-pthread", "-I", "include", "-o", exe.toString(),
                "dfx-bench/src/main/c/producer_cost.c"), null);
        return exe;
    }

    private static double[] run(Path exe, String variant, long events, int batch, Path region)
            throws IOException, InterruptedException {
        String out = exec(List.of(exe.toString(), variant, Long.toString(events), Integer.toString(batch)), region);
        Matcher m = LINE.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("producer_cost " + variant + " printed: " + out);
        }
        if ((region != null) != m.group(7).equals("1")) {
            throw new IllegalStateException("producer_cost " + variant + ": enabled=" + m.group(7) + ", expected "
                    + (region != null ? 1 : 0));
        }
        return new double[] {Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5)),
                Double.parseDouble(m.group(6))};
    }

    private static String exec(List<String> command, Path region) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove(RegionHost.ENV);
        if (region != null) {
            pb.environment().put(RegionHost.ENV, region.toString());
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
