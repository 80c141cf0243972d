package dev.dfx.runtime.workload;

import dev.dfx.error.BadInputException;
import dev.dfx.runtime.RunResult;
import dev.dfx.runtime.RuntimeConfig;
import dev.dfx.runtime.TaskRuntime;
import dev.dfx.runtime.probe.Probe;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs workloads without recording and prints wall time and tasks/s per run: the baseline that recording
 * overhead is measured against.
 *
 * <pre>
 * java -cp ... dev.dfx.runtime.workload.RunWorkloads [-w NAME[,NAME...]] [-S N] [-C N] [--window N] [--repeat N]
 * </pre>
 * Defaults: all five workloads, the runtime's defaults (S=1, C=2, window 4096), 5 runs each. Bad options
 * print one {@code dfx: ...} line and exit 1; a failed check exits 1 after naming the element.
 */
public final class RunWorkloads {
    private RunWorkloads() {
    }

    /**
     * Runs one fresh instance of workload {@code name} and checks its result.
     *
     * @return the run's measurements
     * @throws BadInputException      on an unknown workload
     * @throws WorkloadCheckException when the result is wrong
     * @throws dev.dfx.runtime.TaskFailedException when a kernel or a probe failed
     */
    public static RunResult runChecked(String name, RuntimeConfig config, Probe probe) {
        Workload w = Workloads.create(name);
        RunResult r = TaskRuntime.run(config, probe, w);
        if (r.tasks() != w.expectedTasks()) {
            throw new WorkloadCheckException(name + ": " + r.tasks() + " tasks submitted, expected " + w.expectedTasks());
        }
        w.check();
        return r;
    }

    /** Command-line entry; see the class comment. */
    public static void main(String[] args) {
        try {
            System.exit(run(args, System.out));
        } catch (BadInputException | WorkloadCheckException | IllegalArgumentException e) {
            System.err.println("dfx: " + e.getMessage());
            System.exit(1);
        }
    }

    static int run(String[] args, PrintStream out) {
        List<String> names = Workloads.NAMES;
        RuntimeConfig cfg = RuntimeConfig.defaults().withKeepGraph(false);
        int repeat = 5;
        for (int i = 0; i < args.length; i++) {
            String opt = args[i];
            String val = i + 1 < args.length ? args[i + 1] : null;
            if (val == null) {
                throw new BadInputException("option " + opt + " needs a value");
            }
            i++;
            switch (opt) {
                case "-w" -> names = Arrays.asList(val.split(","));
                case "-S" -> cfg = cfg.withSchedulers(intOption(opt, val));
                case "-C" -> cfg = cfg.withCores(intOption(opt, val));
                case "--window" -> cfg = cfg.withWindow(intOption(opt, val));
                case "--repeat" -> repeat = Math.max(1, intOption(opt, val));
                default -> throw new BadInputException("unknown option " + opt
                        + "; expected -w, -S, -C, --window, --repeat");
            }
        }
        for (String n : names) {
            Workloads.create(n); // reject a bad name before running anything
        }
        out.printf("runtime: S=%d C=%d window=%d, %d runs per workload, no recording%n", cfg.schedulers(),
                cfg.cores(), cfg.window(), repeat);
        out.printf("%-10s %4s %8s %10s %12s%n", "workload", "run", "tasks", "wall_ms", "tasks/s");
        for (String n : names) {
            List<Double> walls = new ArrayList<>();
            long tasks = 0;
            for (int r = 1; r <= repeat; r++) {
                RunResult res = runChecked(n, cfg, Probe.NONE);
                tasks = res.tasks();
                walls.add(res.wallNanos() / 1e6);
                out.printf("%-10s %4d %8d %10.1f %12.0f%n", n, r, res.tasks(), res.wallNanos() / 1e6,
                        res.tasksPerSecond());
            }
            double median = walls.stream().sorted().toList().get(walls.size() / 2);
            out.printf("%-10s %4s %8d %10.1f %12.0f   (median, check ok)%n", n, "med", tasks, median,
                    tasks / (median / 1e3));
        }
        return 0;
    }

    private static int intOption(String opt, String val) {
        try {
            return Integer.parseInt(val);
        } catch (NumberFormatException e) {
            throw new BadInputException("option " + opt + ": '" + val + "' is not an integer");
        }
    }
}
