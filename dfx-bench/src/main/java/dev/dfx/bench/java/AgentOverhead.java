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
 * The cost of the dfx Java agent per recorded task, side by side in one run: {@link PoolWorkload} (10 µs tasks on
 * a pool, or on virtual threads) in a child JVM without anything ({@code off}), with the agent recording into a region
 * this program hosts as {@code dfx record} does ({@code dfx}), and with JFR recording to disk with the
 * {@code profile} settings plus its virtual-thread start and end events ({@code jfr}). The configurations alternate
 * round by round; each prints the median wall ns per task of its rounds and its ratio to {@code off}, and the dfx
 * rounds check that every task's five records (submit instant, flow begin, slice begin, flow end, slice end; on
 * virtual threads four) arrived and reconciled.
 *
 * <pre>
 * java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.java.AgentOverhead dfx-agent/target/dfx-agent.jar [TASKS] [ROUNDS]
 * </pre>
 */
public final class AgentOverhead {
    private static final long MICROS = 10;

    private AgentOverhead() {
    }

    public static void main(String[] args) throws Exception {
        Path agent = Path.of(args[0]).toAbsolutePath();
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String cp = System.getProperty("java.class.path");
        Path dir = Files.createTempDirectory("dfx-agent-overhead");
        for (String mode : List.of("pool", "virtual")) {
            Map<String, List<Long>> ns = new LinkedHashMap<>();
            for (int r = 0; r < rounds; r++) {
                ns.computeIfAbsent("off", k -> new ArrayList<>()).add(run(List.of(), Map.of(), cp, mode, tasks));
                ns.computeIfAbsent("dfx", k -> new ArrayList<>()).add(recorded(agent, dir, cp, mode, tasks));
                String jfr = "-XX:StartFlightRecording:filename=" + dir.resolve("r.jfr") + ",settings=profile,"
                        + "+jdk.VirtualThreadStart#enabled=true,+jdk.VirtualThreadEnd#enabled=true";
                ns.computeIfAbsent("jfr", k -> new ArrayList<>()).add(run(List.of(jfr), Map.of(), cp, mode, tasks));
            }
            long off = median(ns.get("off"));
            for (var e : ns.entrySet()) {
                long m = median(e.getValue());
                System.out.printf("%-8s %-4s median %6d ns/task  x%.3f of off  (rounds %s)%n", mode, e.getKey(), m,
                        (double) m / off, e.getValue());
            }
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** One round with the agent, into a region hosted here; checks the records of every task arrived. */
    private static long recorded(Path agent, Path dir, String cp, String mode, int tasks) throws Exception {
        AtomicLong records = new AtomicLong();
        Path region = dir.resolve("region");
        Files.deleteIfExists(region);
        try (RegionHost host = RegionHost.start(region, RegionSpec.builder().userPool(512, 8, 64).build(),
                b -> records.addAndGet(b.recordCount()))) {
            long ns = run(List.of("-javaagent:" + agent), host.environment(), cp, mode, tasks);
            RegionStats s = host.stop();
            long perTask = mode.equals("pool") ? 5 : 4;
            long want = perTask * (tasks + tasks / 4);
            if (!s.reconciled() || records.get() < want) {
                throw new IllegalStateException("dfx round lost records: " + records.get() + " of at least " + want
                        + ", reconciled " + s.reconciled());
            }
            return ns;
        }
    }

    private static long run(List<String> jvmArgs, Map<String, String> env, String cp, String mode, int tasks)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", cp, PoolWorkload.class.getName(), mode, "" + tasks, "" + MICROS));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0 || !out.contains("ns_per_task ")) {
            throw new IllegalStateException("workload failed: " + cmd + "\n" + out);
        }
        String line = out.lines().filter(l -> l.startsWith("ns_per_task ")).findFirst().orElseThrow();
        return Long.parseLong(line.substring("ns_per_task ".length()).strip());
    }

    private static long median(List<Long> v) {
        long[] a = v.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a[a.length / 2];
    }
}
