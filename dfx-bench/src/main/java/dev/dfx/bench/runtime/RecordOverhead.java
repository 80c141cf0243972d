package dev.dfx.bench.runtime;

import dev.dfx.export.RunTraceExporter;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.recording.Recording;
import dev.dfx.runtime.recording.RecordingConfig;
import dev.dfx.runtime.recording.RecordingPlan;
import dev.dfx.runtime.recording.RunManifest;
import dev.dfx.runtime.workload.Workloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The cost of recording: each workload at default settings recorded with every subsystem on ({@code dfx record}'s
 * defaults, trace export included) and with none ({@code -s none}: the runtime with {@code Probe.NONE}), the two
 * alternating so that a change in machine load hits both alike. Prints, per workload, the median workload wall time
 * off and on, their ratio (the recording overhead), the records collected, records/s of workload time, and the whole
 * command's wall time (stop, exports and trace included). Reports numbers only.
 *
 * <pre>java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.runtime.RecordOverhead [REPEATS] [WORKLOAD,...]</pre>
 */
public final class RecordOverhead {
    private RecordOverhead() {
    }

    /** One recording's numbers. */
    private record Sample(long workloadNs, long wallNs, long records, long tasks) {
    }

    /** @param args [repeats (default 5)] [comma list of workloads (default all)] */
    public static void main(String[] args) throws IOException {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<String> names = args.length > 1 ? Arrays.asList(args[1].split(",")) : Workloads.NAMES;
        Path tmp = Files.createTempDirectory("dfx-overhead");
        System.out.printf("%d runs each, off/on alternating; medians. %d CPUs, load average %.1f%n", repeats,
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.printf("%-10s %7s %9s %9s %7s %9s %11s %10s%n", "workload", "tasks", "off_ms", "on_ms", "ratio",
                "records", "records/s", "record_ms");
        for (String name : names) {
            List<Sample> off = new ArrayList<>();
            List<Sample> on = new ArrayList<>();
            record(name, EnumSet.allOf(Subsystem.class), tmp); // warm-up, not counted
            for (int r = 0; r < repeats; r++) {
                off.add(record(name, EnumSet.noneOf(Subsystem.class), tmp));
                on.add(record(name, EnumSet.allOf(Subsystem.class), tmp));
            }
            Sample offMed = median(off);
            Sample onMed = median(on);
            long records = median(on, Sample::records);
            System.out.printf(Locale.ROOT, "%-10s %7d %9.1f %9.1f %7.2f %9d %11.0f %10.1f%n", name, onMed.tasks(),
                    offMed.workloadNs() / 1e6, onMed.workloadNs() / 1e6, (double) onMed.workloadNs() / offMed.workloadNs(),
                    records, records * 1e9 / onMed.workloadNs(), median(on, Sample::wallNs) / 1e6);
        }
        delete(tmp);
    }

    private static Sample record(String workload, EnumSet<Subsystem> subsystems, Path tmp) {
        Path dir = tmp.resolve("run");
        RecordingConfig c = RecordingConfig.defaults().withWorkload(workload).withSubsystems(subsystems).withOutput(dir);
        long t0 = System.nanoTime();
        RunManifest m = new Recording(RecordingPlan.of(c, tmp)).run(List.of(
                (run, man) -> RunTraceExporter.write(run, man, run.resolve(RunTraceExporter.FILE))));
        long wall = System.nanoTime() - t0;
        if (!m.status().equals("ok")) {
            throw new IllegalStateException(workload + ": run " + m.status() + ": " + m.reason());
        }
        long records = m.subsystems().stream().mapToLong(RunManifest.SubsystemReport::collected).sum();
        delete(dir);
        return new Sample(m.workload().wallNs(), wall, records, m.workload().tasks());
    }

    private static Sample median(List<Sample> s) {
        List<Sample> sorted = new ArrayList<>(s);
        sorted.sort(Comparator.comparingLong(Sample::workloadNs));
        return sorted.get(sorted.size() / 2);
    }

    private static long median(List<Sample> s, java.util.function.ToLongFunction<Sample> f) {
        long[] v = s.stream().mapToLong(f).sorted().toArray();
        return v[v.length / 2];
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
