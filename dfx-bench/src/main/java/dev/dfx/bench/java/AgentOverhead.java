package dev.dfx.bench.java;

import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cost of the dfx Java agent per recorded task, side by side in one run: {@link PoolWorkload} (tasks of about
 * 10 µs of arithmetic, sized here by the fastest of many timed runs, on a pool or on virtual threads) in a child JVM without anything ({@code off}), with the agent recording into a region
 * this program hosts as {@code dfx record} does ({@code dfx}), and with JFR recording to disk with the
 * {@code profile} settings plus its virtual-thread start and end events ({@code jfr}). The configurations alternate
 * round by round; each prints the median CPU ns per task of its rounds (the process's CPU time over the timed round:
a loaded machine stretches wall time, not the work done), the difference to {@code off} (the cost per recorded
task) and the ratio, and the median wall ns per task; the dfx
 * rounds check that every task's five records (submit instant, flow begin, slice begin, flow end, slice end; on
 * virtual threads four) arrived and reconciled.
 *
 * <pre>
 * java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.java.AgentOverhead dfx-agent/target/dfx-agent.jar [TASKS] [ROUNDS]
 * </pre>
 */
public final class AgentOverhead {
    /** The task's length, ns of arithmetic on an idle core. */
    private static final long TASK_NS = 10_000;
    /** The region's user pool, as {@code dfx record}'s default (8x512) unless {@code -Dpool=BUFFERSxRECORDS}. */
    private static final int BUFFERS = Integer.parseInt(System.getProperty("pool", "8x512").split("x")[0]);
    private static final int RECORDS = Integer.parseInt(System.getProperty("pool", "8x512").split("x")[1]);

    private AgentOverhead() {
    }

    public static void main(String[] args) throws Exception {
        Path agent = Path.of(args[0]).toAbsolutePath();
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String cp = System.getProperty("java.class.path");
        Path dir = Files.createTempDirectory("dfx-agent-overhead");
        long work = calibrate();
        System.out.printf("task: %d iterations (about %d ns on an idle core), %d tasks, %d rounds%n", work, TASK_NS,
                tasks, rounds);
        for (String mode : List.of("pool", "virtual")) {
            Map<String, List<long[]>> ns = new LinkedHashMap<>();
            for (int r = 0; r < rounds; r++) {
                ns.computeIfAbsent("off", k -> new ArrayList<>()).add(run(List.of(), Map.of(), cp, mode, tasks, work));
                ns.computeIfAbsent("dfx", k -> new ArrayList<>()).add(recorded(agent, dir, cp, mode, tasks, work));
                String jfr = "-XX:StartFlightRecording:filename=" + dir.resolve("r.jfr") + ",settings=profile,"
                        + "+jdk.VirtualThreadStart#enabled=true,+jdk.VirtualThreadEnd#enabled=true";
                ns.computeIfAbsent("jfr", k -> new ArrayList<>())
                        .add(run(List.of(jfr), Map.of(), cp, mode, tasks, work));
            }
            long offCpu = median(ns.get("off"), 1);
            for (var e : ns.entrySet()) {
                long cpu = median(e.getValue(), 1);
                System.out.printf("%-8s %-4s cpu %6d ns/task (+%5d, x%.3f of off)  wall %6d ns/task%n", mode,
                        e.getKey(), cpu, cpu - offCpu, (double) cpu / offCpu, median(e.getValue(), 0));
            }
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** @return the iterations of {@link PoolWorkload#work} that take {@link #TASK_NS} at best (the fastest run) */
    private static long calibrate() {
        long iterations = 1000;
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 20_000; i++) {
            long t0 = System.nanoTime();
            PoolWorkload.sink = PoolWorkload.work(iterations);
            best = Math.min(best, System.nanoTime() - t0);
        }
        return Math.max(1, iterations * TASK_NS / Math.max(1, best));
    }

    /** One round with the agent, into a region hosted here; checks the records of every task arrived. */
    private static long[] recorded(Path agent, Path dir, String cp, String mode, int tasks, long work)
            throws Exception {
        AtomicLong records = new AtomicLong();
        Path region = dir.resolve("region");
        Files.deleteIfExists(region);
        try (RegionHost host = RegionHost.start(region, RegionSpec.builder().userPool(RECORDS, BUFFERS, 64).build(),
                b -> records.addAndGet(b.recordCount()))) {
            long[] ns = run(List.of("-javaagent:" + agent), host.environment(), cp, mode, tasks, work);
            RegionStats s = host.stop();
            long perTask = mode.equals("pool") ? 5 : 4;
            long want = perTask * (tasks + tasks / 4);
            long stalls = s.lanes().stream().mapToLong(l -> l.stats().stallCount()).sum();
            long stallNs = s.lanes().stream().mapToLong(l -> l.stats().stallTotalNs()).sum();
            System.err.printf("  dfx %s round: %d records, %d stalls (%.1f ms)%n", mode, records.get(), stalls,
                    stallNs / 1e6);
            if (!s.reconciled() || records.get() < want) {
                throw new IllegalStateException("dfx round lost records: " + records.get() + " of at least " + want
                        + ", reconciled " + s.reconciled());
            }
            return ns;
        }
    }

    /** @return {wall, cpu} ns per task */
    private static long[] run(List<String> jvmArgs, Map<String, String> env, String cp, String mode, int tasks,
            long work) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", cp, PoolWorkload.class.getName(), mode, "" + tasks, "" + work));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0 || !out.contains("ns_per_task ")) {
            throw new IllegalStateException("workload failed: " + cmd + "\n" + out);
        }
        String[] f = out.lines().filter(l -> l.startsWith("ns_per_task ")).findFirst().orElseThrow().split(" ");
        return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])};
    }

    private static long median(List<long[]> v, int column) {
        long[] a = v.stream().mapToLong(x -> x[column]).toArray();
        Arrays.sort(a);
        return a[a.length / 2];
    }
}
