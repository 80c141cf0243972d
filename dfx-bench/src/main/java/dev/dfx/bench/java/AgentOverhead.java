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
 * 10 µs of arithmetic, sized here by the fastest of many timed runs, on a pool or on virtual threads, a window of
 * tasks in flight) in a child JVM without anything ({@code off}), with the agent recording into a region this program
 * hosts as {@code dfx record} does ({@code dfx}; {@code dfx-tsc}: the same with {@code DFX_CLOCK=tsc} and
 * {@code --enable-native-access=ALL-UNNAMED}, so that the timestamps are TSC reads), and with JFR recording to disk with the {@code profile} settings
 * plus its virtual-thread start and end events ({@code jfr}). Each child JVM runs untimed warm-up rounds (class
 * loading, the JIT's compilation of the executors, the agent's hooks and the producer, the region's first page
 * touches) and then timed rounds; the configurations alternate JVM by JVM. Printed per configuration, as medians over
 * every timed round: CPU ns per task of the application's threads (the submitting thread and the pool's threads or
 * the virtual threads' carriers), of the whole process, of its JIT and GC threads, and wall ns per task; the
 * difference to {@code off} in the application's CPU is the agent's cost per task. The dfx rounds check that every
 * task's records arrived (submit instant, flow begin, slice begin, flow end, slice end; on virtual threads four) and
 * reconciled. The machine's load average is printed before and after.
 *
 * <pre>
 * java [-Dpool=8x512] -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.java.AgentOverhead dfx-agent/target/dfx-agent.jar \
 *     [TASKS=100000] [JVMS=3] [WARMUP=2] [ROUNDS=5] [WINDOW=64] [MODES=pool,virtual] [CONFIGS=off,dfx,dfx-tsc,jfr]
 * </pre>
 */
public final class AgentOverhead {
    /** The task's length, ns of arithmetic on an idle core. */
    private static final long TASK_NS = 10_000;
    /** The region's user pool, as {@code dfx record}'s default (8x2048) unless {@code -Dpool=BUFFERSxRECORDS}. */
    private static final String POOL = System.getProperty("pool",
            RegionSpec.DEFAULT_BUFFERS_PER_LANE + "x" + RegionSpec.DEFAULT_RECORDS_PER_BUFFER);
    private static final int BUFFERS = Integer.parseInt(POOL.split("x")[0]);
    private static final int RECORDS = Integer.parseInt(POOL.split("x")[1]);
    private static final String[] COLUMNS = {"wall", "total", "app", "jit", "gc"};

    private AgentOverhead() {
    }

    /** One child JVM's settings. */
    private record Workload(String cp, String mode, int tasks, long work, int warmup, int rounds, int window) {
        List<String> args() {
            return List.of("-cp", cp, PoolWorkload.class.getName(), mode, "" + tasks, "" + work, "" + warmup,
                    "" + rounds, "" + window);
        }
    }

    public static void main(String[] args) throws Exception {
        Path agent = Path.of(args[0]).toAbsolutePath();
        int tasks = arg(args, 1, 100_000);
        int jvms = arg(args, 2, 3);
        int warmup = arg(args, 3, 2);
        int rounds = arg(args, 4, 5);
        int window = arg(args, 5, 64);
        List<String> modes = List.of((args.length > 6 ? args[6] : "pool,virtual").split(","));
        List<String> configs = List.of((args.length > 7 ? args[7] : "off,dfx,dfx-tsc,jfr").split(","));
        String cp = System.getProperty("java.class.path");
        Path dir = Files.createTempDirectory("dfx-agent-overhead");
        long work = calibrate();
        System.out.printf("task: %d iterations (about %d ns on an idle core); %d tasks a round, %d warm-up + %d timed "
                + "rounds per JVM, %d JVMs per configuration, window %d, region pool %dx%d; load %s%n", work, TASK_NS,
                tasks, warmup, rounds, jvms, window, BUFFERS, RECORDS, load());
        for (String mode : modes) {
            Workload w = new Workload(cp, mode, tasks, work, warmup, rounds, window);
            Map<String, List<long[]>> ns = new LinkedHashMap<>();
            for (int j = 0; j < jvms; j++) {
                for (String c : configs) {
                    List<long[]> got = switch (c) {
                        case "off" -> run(List.of(), Map.of(), w);
                        case "dfx" -> recorded(agent, dir, w, false);
                        case "dfx-tsc" -> recorded(agent, dir, w, true);
                        case "jfr" -> run(List.of("-XX:StartFlightRecording:filename=" + dir.resolve("r.jfr")
                                + ",settings=profile,+jdk.VirtualThreadStart#enabled=true,"
                                + "+jdk.VirtualThreadEnd#enabled=true"), Map.of(), w);
                        default -> throw new IllegalArgumentException(
                                "configuration " + c + ": off, dfx, dfx-tsc or jfr");
                    };
                    ns.computeIfAbsent(c, k -> new ArrayList<>()).addAll(got);
                }
            }
            print(mode, ns);
        }
        System.out.printf("load %s%n", load());
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }

    private static int arg(String[] args, int i, int otherwise) {
        return args.length > i ? Integer.parseInt(args[i]) : otherwise;
    }

    private static void print(String mode, Map<String, List<long[]>> ns) {
        System.out.printf("%-8s %-7s %6s | %22s | %7s %7s %7s %7s   (ns per task, medians of the timed rounds;"
                + " app lowest-highest)%n", "mode", "conf", "rounds", "app cpu", "total", "jit", "gc", "wall");
        long[] off = ns.containsKey("off") ? medians(ns.get("off")) : null;
        for (var e : ns.entrySet()) {
            long[] m = medians(e.getValue());
            long[] app = e.getValue().stream().mapToLong(x -> x[2]).sorted().toArray();
            String vs = off == null || e.getKey().equals("off") ? ""
                    : String.format("%+6d app (x%.3f), %+6d total", m[2] - off[2], (double) m[2] / off[2],
                    m[1] - off[1]);
            System.out.printf("%-8s %-7s %6d | %7d (%6d-%6d) | %7d %7d %7d %7d   %s%n", mode, e.getKey(),
                    e.getValue().size(), m[2], app[0], app[app.length - 1], m[1], m[3], m[4], m[0], vs);
        }
    }

    private static long[] medians(List<long[]> v) {
        long[] m = new long[COLUMNS.length];
        for (int c = 0; c < m.length; c++) {
            final int col = c;
            long[] a = v.stream().mapToLong(x -> x[col]).toArray();
            Arrays.sort(a);
            m[c] = a[a.length / 2];
        }
        return m;
    }

    /** @return the 1, 5 and 15 minute load averages */
    private static String load() throws IOException {
        String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
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

    /** One JVM with the agent, into a region hosted here; checks the records of every task arrived. */
    private static List<long[]> recorded(Path agent, Path dir, Workload w, boolean tsc) throws Exception {
        AtomicLong records = new AtomicLong();
        Path region = dir.resolve("region");
        Files.deleteIfExists(region);
        try (RegionHost host = RegionHost.start(region, RegionSpec.builder().userPool(RECORDS, BUFFERS, 64).build(),
                b -> records.addAndGet(b.recordCount()))) {
            Map<String, String> env = new java.util.HashMap<>(host.environment());
            List<String> jvm = new ArrayList<>(List.of("-javaagent:" + agent));
            if (tsc) {
                env.put("DFX_CLOCK", "tsc");
                jvm.add("--enable-native-access=ALL-UNNAMED");
            }
            List<long[]> ns = run(jvm, env, w);
            RegionStats s = host.stop();
            long perTask = w.mode().equals("pool") ? 5 : 4;
            long want = perTask * w.tasks() * (w.warmup() + w.rounds());
            long stalls = s.lanes().stream().mapToLong(l -> l.stats().stallCount()).sum();
            long stallNs = s.lanes().stream().mapToLong(l -> l.stats().stallTotalNs()).sum();
            System.err.printf("  dfx%s %s JVM: %d records, %d stalls (%.1f ms waiting for the host), TSC %s%n",
                    tsc ? "-tsc" : "", w.mode(), records.get(), stalls, stallNs / 1e6, s.tsc().isPresent());
            if (tsc != s.tsc().isPresent()) {
                throw new IllegalStateException("the dfx-tsc run did not use the TSC, or the dfx run did");
            }
            if (!s.reconciled() || records.get() < want) {
                throw new IllegalStateException("dfx run lost records: " + records.get() + " of at least " + want
                        + ", reconciled " + s.reconciled());
            }
            return ns;
        }
    }

    /** @return per timed round {wall, total, app, jit, gc} ns per task */
    private static List<long[]> run(List<String> jvmArgs, Map<String, String> env, Workload w)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmArgs);
        cmd.addAll(w.args());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        List<long[]> rounds = out.lines().filter(l -> l.startsWith("round ")).map(l -> Arrays.stream(l.split(" "))
                .skip(1).mapToLong(Long::parseLong).toArray()).toList();
        if (p.waitFor() != 0 || rounds.size() != w.rounds()) {
            throw new IllegalStateException("workload failed: " + cmd + "\n" + out);
        }
        return rounds;
    }
}
