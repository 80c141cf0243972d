package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.linux.CpuTopology;
import dev.dfx.pmu.linux.LinuxSyscalls;
import dev.dfx.pmu.linux.OnlineCpus;
import dev.dfx.pmu.linux.StoppedChild;
import dev.dfx.pmu.spec.EventSyntaxException;
import dev.dfx.pmu.stat.Aggregation;
import dev.dfx.pmu.stat.Metric;
import dev.dfx.pmu.stat.ShadowMetrics;
import dev.dfx.pmu.stat.StatFormatter;
import dev.dfx.pmu.stat.StatRow;
import dev.dfx.pmu.stat.StatSession;
import dev.dfx.pmu.stat.StatTarget;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dfx stat}: counts events while a command runs and prints perf stat's layout on stderr (std, {@code -x}
 * CSV, {@code -I} intervals). The command starts stopped ({@link StoppedChild}); Linux counters open on its pid
 * with enable_on_exec and inherit (or per CPU with {@code -a}); the exit status is the command's (128 + N when
 * signal N ended it: the JVM reports a signalled child so, and its reaper thread collects the child before dfx could
 * ask how it ended, so dfx neither prints perf's {@code psignal} line "CMD: Segmentation fault" nor exits 0 as perf
 * does).
 *
 * <p>Ctrl-C (SIGINT) does not end dfx while the command runs, as it does not end perf stat ({@code skip_signal}):
 * the command, which gets the same SIGINT through the terminal's process group, ends, and dfx prints what was
 * counted (with {@code -I}, the pending partial interval) and exits with the command's status: 130 when the SIGINT
 * ended it (perf 6.1 exits 0 then, as for any signal), the command's own when only dfx got the SIGINT and the
 * command ran on to its end (perf 6.1 exits 0 there as well). A second SIGINT kills a command that ignores the first
 * (SIGKILL).
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = "Count PMU events while a command runs (perf stat compatible).",
        footer = {"", "Linux events count the command and its children from its exec (or every CPU with -a).",
            "Ctrl-C ends the command; dfx then prints what was counted (a second Ctrl-C kills the command).",
            "The exit status is the command's, 128 + N when signal N ended it (perf stat prints 'CMD: <signal>' and"
                + " exits 0), 127 when it is not found and 126 when it is not executable, as in a shell (perf stat"
                + " exits 255).",
            "Events of dfx's own PMUs (accel, jvm) count in the dfx process; accel counts tasks of an in-process"
                + " runtime."})
final class StatCommand implements Callable<Integer> {
    /** perf 6.1's default event list. */
    static final String DEFAULT_EVENTS =
            "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-e", "--event"}, paramLabel = "EVENTS",
            description = "Event list, e.g. task-clock,accel/sq_waves,se=2/ (repeatable; default: perf's).")
    List<String> events = new ArrayList<>();

    @Option(names = {"-x", "--field-separator"}, paramLabel = "SEP", description = "CSV output with this separator.")
    String separator;

    @Option(names = {"-I", "--interval-print"}, paramLabel = "MS", description = "Print counts every MS milliseconds (at least 10).")
    int intervalMs;

    @Option(names = {"-a", "--all-cpus"}, description = "Count Linux events on every CPU, system-wide.")
    boolean allCpus;

    @Option(names = {"-A", "--no-aggr"}, description = "With -a: one line per CPU.")
    boolean noAggr;

    @Option(names = "--per-core", description = "With -a: one line per core (its CPUs summed).")
    boolean perCore;

    @Option(names = "--per-socket", description = "With -a: one line per socket (its CPUs summed).")
    boolean perSocket;

    @Option(names = {"-v", "--verbose"}, description = "Say why events are not supported; print raw counts.")
    boolean verbose;

    @Option(names = "--arch", paramLabel = "ARCH", defaultValue = "gfx12",
            description = "Architecture of the simulated accelerator PMU: gfx12 or gfx9 (default: ${DEFAULT-VALUE}).")
    String arch;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The command to run, after --.")
    List<String> command;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        if (intervalMs != 0 && intervalMs < 10) {
            throw new UsageException("option -I: " + intervalMs + " ms is below the minimum of 10 ms");
        }
        if (separator != null && separator.isEmpty()) {
            throw new UsageException("option -x: the separator is empty (expected e.g. -x, or -x';')");
        }
        if (!LinuxSyscalls.available()) {
            throw new BadInputException("stat needs Linux: " + LinuxSyscalls.unavailableReason());
        }
        Aggregation aggregation = aggregation();
        PmuSystem system = PmuSystem.host(Architecture.byName(arch));
        String list = events.isEmpty() ? DEFAULT_EVENTS : String.join(",", events);
        List<ResolvedEvent> resolved;
        try {
            resolved = system.catalog().resolve(list);
        } catch (EventSyntaxException e) {
            // perf's caret under the column, then the usual one line: an event the list cannot name is a usage
            // error whatever the command counts, as a bad value of any other option
            err.print(e.perfStyle(80));
            throw new UsageException("option -e: " + e.getMessage(), e);
        }
        if (aggregation != null) {
            resolved.stream().filter(e -> e.family() != PmuFamily.LINUX).findFirst().ifPresent(e -> {
                throw new UsageException("option " + aggregationOption() + ": " + e.name() + " counts in the dfx"
                    + " process, not per CPU; only Linux events count per CPU");
            });
        }
        StatFormatter fmt = new StatFormatter(separator);
        List<Integer> cpus = allCpus ? OnlineCpus.read() : List.of();
        units = aggregation == null ? null : aggregation.units(cpus.stream().map(CpuTopology::read).toList());
        this.aggregation = aggregation;
        StoppedChild child = StoppedChild.start(command);
        StatTarget target = allCpus ? new StatTarget.AllCpus(cpus) : new StatTarget.Task(child.pid());
        try (StoppedChild c = child; StatSession session = StatSession.open(system, resolved, target)) {
            if (verbose) {
                session.entries().stream().filter(en -> !en.supported())
                        .forEach(en -> err.println("Warning:\n" + en.failure()));
            }
            long[] ru0 = LinuxSyscalls.childrenCpuTimes();
            // set-up (enabling dfx's own PMUs, their multiplexing thread) stays outside the elapsed time, which runs
            // from the go signal to the exit as perf's does (StoppedChild says how close that is)
            session.enable();
            AtomicInteger interrupts = new AtomicInteger();
            // kept until the counts are printed: the JVM dispatches a signal on its own thread, possibly after the
            // command's exit (which the same Ctrl-C caused) has been seen
            SignalHandlers handlers = SignalHandlers.install(List.of("INT"), (name, number) -> {
                if (interrupts.incrementAndGet() > 1) {
                    LinuxSyscalls.kill(c.pid(), LinuxSyscalls.SIGKILL);
                }
            });
            try {
                // the command's status, not 130 for any SIGINT: one sent to dfx alone did not end the command
                return runAndPrint(c, session, fmt, err, ru0, session.read());
            } finally {
                if (handlers != null) {
                    handlers.close();
                }
            }
        }
    }

    /** The aggregation of -A, --per-core or --per-socket (with -a), or {@code null} for perf's global sum. */
    private Aggregation aggregation;
    /** Its units, in perf's order. */
    private List<Aggregation.Unit> units;

    /**
     * @return the aggregation the options ask for, or {@code null}
     * @throws BadInputException when more than one is given, or one without -a (perf: "both cgroup and
     *                           no-aggregation modes only available in system-wide mode")
     */
    private Aggregation aggregation() {
        int given = (noAggr ? 1 : 0) + (perCore ? 1 : 0) + (perSocket ? 1 : 0);
        if (given == 0) {
            return null;
        }
        if (given > 1) {
            throw new UsageException("options -A, --per-core and --per-socket exclude each other; give one");
        }
        if (!allCpus) {
            throw new UsageException("option " + aggregationOption() + ": only available in system-wide mode"
                + " (-a), as in perf stat");
        }
        return noAggr ? Aggregation.NO_AGGR : perCore ? Aggregation.PER_CORE : Aggregation.PER_SOCKET;
    }

    private String aggregationOption() {
        return noAggr ? "-A" : perCore ? "--per-core" : "--per-socket";
    }

    /**
     * Lets the command run, waits for its exit, and prints the counts (or, with -I, each interval's).
     *
     * @param atStart the counts just before the go signal
     * @return the command's exit status
     */
    private int runAndPrint(StoppedChild c, StatSession session, StatFormatter fmt, PrintWriter err, long[] ru0,
                            List<CounterReading> atStart) throws InterruptedException {
        // system-wide counters run from their enabling in the set-up: what they counted before the go signal is
        // taken off, so the counts cover the elapsed time as perf's do (on 2 CPUs, 2 CPUs utilized and not more)
        List<List<CounterReading>> perCpuAtStart = aggregation == null ? null : session.readPerCpu();
        long t0 = c.go();
        session.toolTimes().start(t0);
        int status = intervalMs > 0 ? runIntervals(c, session, fmt, err, t0, atStart, perCpuAtStart)
            : c.awaitExit();
        long t1 = c.exitNanos();
        session.disable();
        long[] ru1 = LinuxSyscalls.childrenCpuTimes();
        session.toolTimes().finish(t1, ru1[0] - ru0[0], ru1[1] - ru0[1]);
        List<CounterReading> readings = minus(List.of(session.read()), List.of(atStart)).getFirst();
        if (intervalMs == 0) {
            List<StatRow> rows = session.rows(readings);
            if (verbose) {
                rows.stream().filter(StatRow::supported).forEach(r -> err.println(r.event().name() + ": "
                        + r.reading().value() + " " + r.reading().enabled() + " " + r.reading().running()));
            }
            err.print(fmt.header(command, allCpus));
            if (aggregation == null) {
                printRows(err, fmt, rows, t1 - t0, "");
            } else {
                printUnits(err, fmt, session, minus(session.readPerCpu(), perCpuAtStart), t1 - t0, "");
            }
            err.print(fmt.footer(t1 - t0, allCpus ? -1 : ru1[0] - ru0[0], ru1[1] - ru0[1]));
        }
        err.flush();
        return status;
    }

    /**
     * Prints the counts of each interval. The k-th interval ends at {@code t0 + k * MS} (a late wake-up does not
     * shift the later ones), or at the command's exit; its derived metrics (CPUs utilized, rates) divide by the
     * time it really lasted. perf 6.1 differs on both: it sleeps MS after each print, so its timestamps drift by
     * the time of each read and print, and it divides by the nominal MS ({@code process_interval} in
     * builtin-stat.c), which shows a late interval above the CPU count and a short last one far below it.
     */
    private int runIntervals(StoppedChild child, StatSession session, StatFormatter fmt, PrintWriter err, long t0,
                             List<CounterReading> atStart, List<List<CounterReading>> perCpuAtStart)
        throws InterruptedException {
        long intervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        List<CounterReading> prev = atStart;
        List<List<CounterReading>> prevPerCpu = perCpuAtStart;
        long prevT = t0;
        int printed = 0;
        for (long k = 1; ; k++) {
            long waitNs = t0 + k * intervalNs - System.nanoTime();
            boolean exited = child.waitFor(Math.max(0, (waitNs + 999_999) / 1_000_000));
            long now = exited ? child.exitNanos() : System.nanoTime();
            List<CounterReading> cur = session.read();
            List<CounterReading> delta = new ArrayList<>(cur.size());
            for (int i = 0; i < cur.size(); i++) {
                delta.add(cur.get(i).minus(prev.get(i)));
            }
            if (printed++ % 25 == 0) {
                err.print(fmt.intervalHeader());
            }
            if (aggregation == null) {
                printRows(err, fmt, session.rows(delta), now - prevT, fmt.intervalPrefix(now - t0));
            } else {
                List<List<CounterReading>> perCpu = session.readPerCpu();
                printUnits(err, fmt, session, minus(perCpu, prevPerCpu), now - prevT, fmt.intervalPrefix(now - t0));
                prevPerCpu = perCpu;
            }
            err.flush();
            prev = cur;
            prevT = now;
            if (exited) {
                return child.waitFor();
            }
        }
    }

    /**
     * perf's per-CPU, per-core or per-socket lines ({@code print_counter} for -A: each event's CPUs in turn;
     * {@code print_aggr} for the others: each unit's events in turn), each unit's derived metrics computed from its
     * own counts (CPUs utilized is its task-clock over the elapsed time, rates divide by its task-clock).
     */
    private void printUnits(PrintWriter err, StatFormatter fmt, StatSession session, List<List<CounterReading>> perCpu,
                            long wallNs, String prefix) {
        List<List<StatRow>> rows = new ArrayList<>();
        List<List<Metric>> metrics = new ArrayList<>();
        for (Aggregation.Unit u : units) {
            List<CounterReading> sums = new ArrayList<>();
            for (List<CounterReading> event : perCpu) {
                CounterReading sum = CounterReading.ZERO;
                for (int i : u.indexes()) {
                    sum = sum.plus(event.get(i));
                }
                sums.add(sum);
            }
            List<StatRow> r = session.rows(sums);
            rows.add(r);
            metrics.add(ShadowMetrics.compute(r, wallNs));
        }
        int events = perCpu.size();
        boolean eventMajor = aggregation == Aggregation.NO_AGGR;
        for (int a = 0; a < (eventMajor ? events : units.size()); a++) {
            for (int b = 0; b < (eventMajor ? units.size() : events); b++) {
                int unit = eventMajor ? b : a;
                int event = eventMajor ? a : b;
                err.print(fmt.line(rows.get(unit).get(event), metrics.get(unit).get(event),
                    prefix + aggregation.prefix(units.get(unit), separator)));
            }
        }
    }

    private static List<List<CounterReading>> minus(List<List<CounterReading>> now, List<List<CounterReading>> then) {
        List<List<CounterReading>> out = new ArrayList<>(now.size());
        for (int e = 0; e < now.size(); e++) {
            List<CounterReading> d = new ArrayList<>();
            for (int c = 0; c < now.get(e).size(); c++) {
                d.add(now.get(e).get(c).minus(then.get(e).get(c)));
            }
            out.add(d);
        }
        return out;
    }

    private static void printRows(PrintWriter err, StatFormatter fmt, List<StatRow> rows, long wallNs, String prefix) {
        var metrics = ShadowMetrics.compute(rows, wallNs);
        for (int i = 0; i < rows.size(); i++) {
            err.print(fmt.line(rows.get(i), metrics.get(i), prefix));
        }
    }
}
