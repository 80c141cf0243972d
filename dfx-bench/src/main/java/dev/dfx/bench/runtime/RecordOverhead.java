package dev.dfx.bench.runtime;

import dev.dfx.export.RunTraceExporter;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.probe.JvmThreadCounters;
import dev.dfx.runtime.recording.Recording;
import dev.dfx.runtime.recording.RecordingConfig;
import dev.dfx.runtime.recording.RecordingPlan;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.workload.Workloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * The cost of recording: each workload at default settings recorded with every subsystem on ({@code dfx record}'s
 * defaults, trace export included) and with none ({@code -s none}: the runtime with {@code Probe.NONE}), the
 * configurations alternating so that a change in machine load hits all alike, after {@code --warmup N} uncounted
 * rounds (default {@value #WARMUP}; a workload's program method runs once per recording, and C2 takes a while, up to
 * half a second of compiler time, to compile it with the probes inlined; a compile that lands in a counted run shows
 * in jit_ms, and on a busy machine more warm-up rounds keep it out). Prints, per workload and
 * configuration, medians of: the workload's wall time and its ratio to "none" (the recording overhead), the process
 * CPU time spent while the workload ran (every thread: runtime, host, GC, JIT; see {@link CpuTimedWorkload}) and its
 * ratio, the JIT compilers' and garbage collectors' time in that window, the records collected, the gate-wait stall time of all lanes, and the whole command's wall time (stop,
 * exports and trace included) with the process CPU time of the recording outside the workload ({@code rest_cpu_ms}:
 * set-up, stop, outputs and trace, on every thread; on a loaded machine steadier than their wall time). With {@code --each}, each subsystem alone too, and {@code pmu-cpu}: the pmu subsystem
 * alone reading thread CPU time as well ({@code -e jvm/cpu-time/,jvm/alloc-bytes/}), whose difference to {@code pmu}
 * (the default, allocated bytes only) is the cost of two thread CPU time reads per task (system calls). Each run starts after a
 * {@code System.gc()}, so no run pays for the previous run's export garbage. The last four columns are the lowest and
 * highest of the workload's wall time and CPU time over the counted runs. With {@code --threads}, a line per
 * configuration more: the medians of each dfx thread role's CPU time in the workload ({@link ThreadCpuSampler}:
 * orchestrator, schedulers, cores, the recording's host loop and collector workers) and {@code other}, the rest of
 * the process CPU (GC, JIT, the sampler). Refuses any run that lost a record. Reports numbers only.
 *
 * <p>With {@code --only none,CONFIG,...}, only the configurations named ({@code none} always: the ratios are to it;
 * the others from {@code --each}'s and {@code all}): for profiling one subsystem, or a quicker comparison of two
 * builds. With {@code --pool} (repeatable, as {@code dfx record --pool}), every recording configuration's pools are
 * sized so, for measuring what a pool's size costs.
 *
 * <pre>java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.runtime.RecordOverhead [REPEATS] [WORKLOAD,...] [--each]
 *     [--warmup N] [--threads] [--only none,CONFIG,...] [--pool KIND=COUNTxRECORDS]...</pre>
 */
public final class RecordOverhead {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Warm-up rounds (every configuration once) before the counted ones, unless {@code --warmup} says. */
    private static final int WARMUP = 3;

    private RecordOverhead() {
    }

    /** What one configuration records: its subsystems, and the pmu events (null: the default counters). */
    private record Config(EnumSet<Subsystem> subsystems, String pmuEvents) {
    }

    /** One recording's numbers. */
    private record Sample(long workloadNs, long cpuNs, long jitMs, long gcMs, long wallNs, long records, long stallNs,
                          long tasks, long restCpuNs, Map<String, Long> threadNs) {
    }

    /**
     * @param args [repeats (default 5)] [comma list of workloads (default all)] [--each] [--warmup N (default
     *             {@value #WARMUP})] [--threads] [--only none,CONFIG,...]
     */
    public static void main(String[] args) throws IOException {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        boolean each = rest.remove("--each");
        boolean threads = rest.remove("--threads");
        List<String> only = null;
        int o = rest.indexOf("--only");
        if (o >= 0) {
            only = Arrays.asList(rest.remove(o + 1).split(","));
            rest.remove(o);
        }
        List<String> pools = new ArrayList<>();
        for (int p = rest.indexOf("--pool"); p >= 0; p = rest.indexOf("--pool")) {
            pools.add(rest.remove(p + 1));
            rest.remove(p);
        }
        int warmup = WARMUP;
        int w = rest.indexOf("--warmup");
        if (w >= 0) {
            warmup = Integer.parseInt(rest.remove(w + 1));
            rest.remove(w);
        }
        int repeats = rest.size() > 0 ? Integer.parseInt(rest.get(0)) : 5;
        List<String> names = rest.size() > 1 ? Arrays.asList(rest.get(1).split(",")) : Workloads.NAMES;
        Map<String, Config> configs = new LinkedHashMap<>();
        configs.put("none", new Config(EnumSet.noneOf(Subsystem.class), null));
        if (each) {
            for (Subsystem s : Subsystem.values()) {
                configs.put(s.id(), new Config(EnumSet.of(s), null));
            }
            configs.put("pmu-cpu", new Config(EnumSet.of(Subsystem.PMU), String.join(",", JvmThreadCounters.NAMES)));
        }
        configs.put("all", new Config(EnumSet.allOf(Subsystem.class), null));
        if (only != null) {
            List<String> keep = only;
            if (!keep.contains("none") || !configs.keySet().containsAll(keep)) {
                throw new IllegalArgumentException("--only " + String.join(",", keep) + ": expected none and some of "
                        + configs.keySet());
            }
            configs.keySet().retainAll(keep);
        }
        Path tmp = Files.createTempDirectory("dfx-overhead");
        System.out.printf(Locale.ROOT, "%d runs each after %d warm-up rounds, configurations alternating; medians. %d CPUs,"
                + " load average %.1f%n", repeats, warmup, Runtime.getRuntime().availableProcessors(),
                OS.getSystemLoadAverage());
        System.out.printf("%-10s %-9s %7s %9s %7s %9s %7s %7s %7s %9s %9s %10s %12s %8s %8s %8s %8s%n", "workload",
                "recording", "tasks", "wall_ms", "ratio", "cpu_ms", "ratio", "jit_ms", "gc_ms", "records", "stall_ms",
                "record_ms", "rest_cpu_ms", "wall_lo", "wall_hi", "cpu_lo", "cpu_hi");
        for (String name : names) {
            Map<String, List<Sample>> samples = new LinkedHashMap<>();
            configs.forEach((c, s) -> samples.put(c, new ArrayList<>()));
            for (int i = 0; i < warmup; i++) {  // not counted: the program runs once per recording, so the JIT
                configs.forEach((c, s) -> record(name, s, tmp, false, pools));  // needs several before it compiles it
            }
            for (int r = 0; r < repeats; r++) {
                configs.forEach((c, s) -> samples.get(c).add(record(name, s, tmp, threads, pools)));
            }
            double offWall = median(samples.get("none"), Sample::workloadNs);
            double offCpu = median(samples.get("none"), Sample::cpuNs);
            samples.forEach((c, s) -> System.out.printf(Locale.ROOT,
                    "%-10s %-9s %7d %9.1f %7.2f %9.1f %7.2f %7d %7d %9d %9.1f %10.1f %12.1f %8.1f %8.1f %8.1f %8.1f%n",
                    name, c, s.getFirst().tasks(),
                    median(s, Sample::workloadNs) / 1e6, median(s, Sample::workloadNs) / offWall,
                    median(s, Sample::cpuNs) / 1e6, median(s, Sample::cpuNs) / offCpu, median(s, Sample::jitMs),
                    median(s, Sample::gcMs), median(s, Sample::records), median(s, Sample::stallNs) / 1e6,
                    median(s, Sample::wallNs) / 1e6, median(s, Sample::restCpuNs) / 1e6,
                    lowest(s, Sample::workloadNs) / 1e6, highest(s, Sample::workloadNs) / 1e6,
                    lowest(s, Sample::cpuNs) / 1e6, highest(s, Sample::cpuNs) / 1e6));
            if (threads) {
                samples.forEach((c, s) -> printThreads(name, c, s));
            }
        }
        System.out.printf(Locale.ROOT, "load average at the end %.1f%n", OS.getSystemLoadAverage());
        delete(tmp);
    }

    /**
     * One line: the medians of each thread role's CPU ms in the workload, then {@code other} (process CPU less
     * them).
     */
    private static void printThreads(String workload, String config, List<Sample> s) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-10s %-9s threads cpu_ms:", workload,
                config));
        for (String role : s.getFirst().threadNs().keySet()) {
            line.append(String.format(Locale.ROOT, " %s %.1f", role,
                    median(s, x -> x.threadNs().getOrDefault(role, 0L)) / 1e6));
        }
        line.append(String.format(Locale.ROOT, " other %.1f", median(s,
                x -> x.cpuNs() - x.threadNs().values().stream().mapToLong(Long::longValue).sum()) / 1e6));
        System.out.println(line);
    }

    private static Sample record(String workload, Config config, Path tmp, boolean threads, List<String> pools) {
        Path dir = tmp.resolve("run");
        RecordingConfig c = RecordingConfig.defaults().withWorkload(workload).withSubsystems(config.subsystems())
                .withOutput(dir);
        if (!config.subsystems().isEmpty() && !pools.isEmpty()) {
            c = c.withBackpressure(c.policy(), pools);
        }
        if (config.pmuEvents() != null) {
            c = c.withPmuEvents(config.pmuEvents());
        }
        CpuTimedWorkload w = new CpuTimedWorkload(Workloads.create(workload), threads);
        System.gc();  // the previous run's exports left garbage: collect it now, not during this workload
        long cpu0 = OS.getProcessCpuTime();
        long t0 = System.nanoTime();
        RunManifest m = new Recording(RecordingPlan.of(c, tmp, w)).run(List.of(
                (run, man, deps) -> RunTraceExporter.write(run, man, run.resolve(RunTraceExporter.FILE), deps)));
        long wall = System.nanoTime() - t0;
        long restCpu = OS.getProcessCpuTime() - cpu0 - w.cpuNs();
        if (!m.status().equals("ok")) {
            throw new IllegalStateException(workload + ": run " + m.status() + ": " + m.reason());
        }
        long records = 0;
        long stalls = 0;
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            if (s.dropped() != 0 || s.silentLoss() != 0) {
                throw new IllegalStateException(workload + ": " + s.name() + " lost records");
            }
            records += s.collected();
            stalls += s.stalls().totalNs();
        }
        delete(dir);
        return new Sample(m.workload().wallNs(), w.cpuNs(), w.jitMs(), w.gcMs(), wall, records, stalls,
                m.workload().tasks(), restCpu, w.threadNs());
    }

    private static long median(List<Sample> s, ToLongFunction<Sample> f) {
        long[] v = s.stream().mapToLong(f).sorted().toArray();
        return v[v.length / 2];
    }

    private static long lowest(List<Sample> s, ToLongFunction<Sample> f) {
        return s.stream().mapToLong(f).min().orElseThrow();
    }

    private static long highest(List<Sample> s, ToLongFunction<Sample> f) {
        return s.stream().mapToLong(f).max().orElseThrow();
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
