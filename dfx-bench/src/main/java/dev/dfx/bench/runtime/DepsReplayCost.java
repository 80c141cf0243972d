package dev.dfx.bench.runtime;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.recording.Recording;
import dev.dfx.runtime.recording.RecordingConfig;
import dev.dfx.runtime.recording.RecordingPlan;
import dev.dfx.runtime.subsystem.deps.DepsReplay;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.RunManifest;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What the host replay of a run's dependencies costs ({@link DepsReplay#replay}: the tensor map re-resolving every
 * submit of the deps chunk file, as {@code deps.json} and the trace's dependency arrows need it): records each
 * workload once with the deps subsystem alone, then replays its deps chunk file {@code ROUNDS} times on one thread
 * after {@code WARMUP} uncounted replays. Prints per workload the submits' edge count and the median, lowest and
 * highest of the replay's thread CPU time (ThreadMXBean), which a loaded machine disturbs less than wall time.
 * Reports numbers only.
 *
 * <pre>java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.runtime.DepsReplayCost [ROUNDS] [WORKLOAD,...]
 *     [--warmup N]</pre>
 */
public final class DepsReplayCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private DepsReplayCost() {
    }

    /** @param args [rounds (default 20)] [comma list of workloads (default flood)] [--warmup N (default 10)] */
    public static void main(String[] args) throws IOException {
        List<String> rest = new java.util.ArrayList<>(Arrays.asList(args));
        int warmup = 10;
        int w = rest.indexOf("--warmup");
        if (w >= 0) {
            warmup = Integer.parseInt(rest.remove(w + 1));
            rest.remove(w);
        }
        int rounds = rest.size() > 0 ? Integer.parseInt(rest.get(0)) : 20;
        List<String> names = rest.size() > 1 ? Arrays.asList(rest.get(1).split(",")) : List.of("flood");
        Path tmp = Files.createTempDirectory("dfx-replay");
        try {
            System.out.printf("%-10s %8s %8s %10s %10s %10s%n", "workload", "tasks", "edges", "cpu_ms", "cpu_lo",
                    "cpu_hi");
            for (String name : names) {
                Path dir = tmp.resolve(name);
                RunManifest m = new Recording(RecordingPlan.of(RecordingConfig.defaults().withWorkload(name)
                        .withSubsystems(EnumSet.of(Subsystem.DEPS)).withOutput(dir), tmp)).run(List.of());
                if (!m.status().equals("ok")) {
                    throw new IllegalStateException(name + ": run " + m.status() + ": " + m.reason());
                }
                long[] ns = new long[rounds];
                int edges = 0;
                try (ChunkReader deps = ChunkRecords.open(dir, Subsystem.DEPS)) {
                    for (int r = -warmup; r < rounds; r++) {
                        long t0 = THREADS.getCurrentThreadCpuTime();
                        List<Edge> e = DepsReplay.replay(deps);
                        long t = THREADS.getCurrentThreadCpuTime() - t0;
                        edges = e.size();
                        if (r >= 0) {
                            ns[r] = t;
                        }
                    }
                }
                Arrays.sort(ns);
                System.out.printf(Locale.ROOT, "%-10s %8d %8d %10.2f %10.2f %10.2f%n", name, m.workload().tasks(),
                        edges, ns[rounds / 2] / 1e6, ns[0] / 1e6, ns[rounds - 1] / 1e6);
            }
        } finally {
            try (Stream<Path> s = Files.walk(tmp)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
