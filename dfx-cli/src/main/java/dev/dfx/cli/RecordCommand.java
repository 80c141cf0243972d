package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.recording.Durations;
import dev.dfx.runtime.recording.Recording;
import dev.dfx.runtime.recording.RecordingConfig;
import dev.dfx.runtime.workload.Workloads;
import dev.dfx.runtime.recording.RecordingPlan;
import dev.dfx.rundir.RunManifest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dfx record}: runs a workload on the embedded runtime with the chosen subsystems and writes a run directory
 * (run.json, chunk files, subsystem outputs, trace.json). Option parsing and printing only; the work is
 * {@link Recording}'s. Every option is checked before any work starts. A progress line on stderr when it is a
 * terminal; the summary at the end ({@link RunSummary}). Ctrl-C or SIGTERM stops the run ({@link RecordStop}), which
 * still writes its manifest (status {@code interrupted}); exit status 0 ok, 1 failed or silent loss, 128 + the
 * signal (130 SIGINT, 143 SIGTERM) when a signal stopped it.
 */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = {"Record the embedded runtime, or a program that writes user events with dfx.h (-- COMMAND).",
            "The run directory holds run.json, the chunks, the outputs and trace.json (and a COMMAND's region)."},
        footer = {"", "dfx record [OPTIONS] -- COMMAND [ARGS...] runs COMMAND with DFX_REGION set, collects until it and"
            + " every process that inherited the region have ended, and exits with COMMAND's status (128 + N when"
            + " signal N ended it); SIGINT, SIGTERM and SIGHUP are passed on to COMMAND. Its messages go to standard"
            + " error.", "Options of the embedded runtime (-w, -s, levels, -e, --arch, -S, -C) do not apply to a"
            + " command."})
final class RecordCommand implements Callable<Integer> {
    private static final String ALL = "all";
    private static final String NONE = "none";
    private static final String SUBSYSTEMS = "swimlane, pmu, deps, args, scopes";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-w", "--workload"}, paramLabel = "WORKLOAD", defaultValue = RecordingConfig.DEFAULT_WORKLOAD,
            description = "Workload: flood, scoped, gemm, attention, decoder (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = {"-s", "--subsystems"}, paramLabel = "SUBSYSTEMS", defaultValue = "all",
            description = "Comma list of swimlane, pmu, deps, args, scopes; 'all' (default) or 'none' (no recording).")
    String subsystems;

    @Option(names = "--swimlane-level", paramLabel = "N", defaultValue = "4",
            description = "1 core tasks, 2 + scheduler dispatch/finish, 3 + scheduler phases, 4 + orchestrator submits"
                    + " (default: ${DEFAULT-VALUE}).")
    int swimlaneLevel;

    @Option(names = "--args-level", paramLabel = "N", defaultValue = "1",
            description = "0 off, 1 marked arguments, 2 all with payloads, 3 all metadata + marked payloads"
                    + " (default: ${DEFAULT-VALUE}).")
    int argsLevel;

    @Option(names = "--backpressure", paramLabel = "POLICY", defaultValue = "block",
            description = "block (wait at the gates up to the backstop, lose nothing unless a wait expires; default)"
                    + " or drop (never wait, count the loss).")
    String backpressure;

    @Option(names = "--backstop", paramLabel = "DURATION", defaultValue = "30s",
            description = "Budget of one gate wait under block, e.g. 30s, 1.5s, 500ms (default: ${DEFAULT-VALUE}). A wait that"
                    + " runs out degrades its lane: it drops, counted, until the host catches up.")
    String backstop;

    @Option(names = "--stall-threshold", paramLabel = "DURATION", defaultValue = "100us",
            description = "A gate wait longer than this is a stall (default: ${DEFAULT-VALUE}).")
    String stallThreshold;

    @Option(names = "--pool", paramLabel = "KIND=COUNTxRECORDS",
            description = "Pool size: buffers per lane x records per buffer, for a subsystem (deps=1x4) or one of its"
                    + " buffer kinds (swimlane.core-task=2x64). Repeatable.")
    List<String> pools = new ArrayList<>();

    @Option(names = {"-e", "--event"}, paramLabel = "EVENTS",
            description = "Up to 8 pmu events per task, e.g. task-clock,accel/sq_waves,se=2,sa=1/,jvm/alloc-bytes/"
                    + " (default: jvm/alloc-bytes/, the thread's allocated bytes; -e jvm/cpu-time/,jvm/alloc-bytes/"
                    + " adds the thread's CPU ns, at two system calls (1-3 microseconds) per task).")
    String events;

    @Option(names = "--arch", paramLabel = "ARCH", defaultValue = "gfx12",
            description = "Simulated accelerator architecture for accel events: gfx12 or gfx9 (default: ${DEFAULT-VALUE}).")
    String arch;

    @Option(names = {"-S", "--schedulers"}, paramLabel = "N", defaultValue = "1",
            description = "Runtime scheduler threads (default: ${DEFAULT-VALUE}).")
    int schedulers;

    @Option(names = {"-C", "--cores"}, paramLabel = "N", defaultValue = "2",
            description = "Runtime core threads (default: ${DEFAULT-VALUE}).")
    int cores;

    @Option(names = {"-o", "--output"}, paramLabel = "RUN",
            description = "Run directory: ./dfx-runs/<timestamp> by default, or one that is new or empty.")
    Path output;

    @Option(names = "--lanes", paramLabel = "N", defaultValue = "64",
            description = "With a COMMAND: lane slots of its region, the threads (all processes, over the whole run) that"
                    + " can record; a thread that finds none counts its records dropped (default: ${DEFAULT-VALUE}).")
    int lanes;

    @Parameters(arity = "0..*", paramLabel = "COMMAND",
            description = "A program to record (after --), with its arguments.")
    List<String> command = new ArrayList<>();

    @Option(names = {"-q", "--quiet"}, description = "Print only the run directory's path (no summary, no progress); with a command (-- COMMAND)"
            + " nothing but dfx: lines, as perf record -q. A recording that failed adds one dfx: line saying why.")
    boolean quiet;

    @Option(names = "--json", description = "Print the summary as JSON (and nothing else, with or without --quiet).")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (!command.isEmpty()) {
            return new RecordProgram(spec, this).call();
        }
        if (spec.commandLine().getParseResult().originalArgs().contains("--")) {
            // an empty $CMD in a script must not record the default workload instead of the program meant
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "no COMMAND after -- (expected: dfx record [OPTIONS] -- COMMAND [ARGS...])");
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--lanes")) {
            throw new UsageException("option --lanes: applies to a recorded command (dfx record -- COMMAND)");
        }
        PrintWriter out = spec.commandLine().getOut();
        RecordingPlan plan = RecordingPlan.of(config(), Path.of("").toAbsolutePath());
        Recording rec;
        try {
            rec = new Recording(plan);
        } catch (RuntimeException e) {
            plan.discard();
            throw e;
        }
        ProgressLine progress = quiet ? ProgressLine.NONE : ProgressLine.start(rec);
        RunManifest m;
        try (RecordStop stop = RecordStop.watch(rec)) {
            m = rec.run(List.of((dir, man, deps) -> RunTraceExporter.write(dir, man,
                    dir.resolve(RunTraceExporter.FILE), deps)));
            progress.stop();
            rec.manifestProblem().ifPresent(p -> spec.commandLine().getErr().println(Main.errorLine(p)));
            if (json) {
                RunSummary.json(rec.runDir(), m, out);
            } else if (quiet) {
                out.println(rec.runDir()); // what a script needs to go on
                String failed = RunSummary.quietLine(rec.runDir(), m, null);
                if (failed != null) {
                    spec.commandLine().getErr().println(Main.errorLine(failed));
                }
            } else {
                RunSummary.text(rec.runDir(), m, out);
            }
            if (stop.signal().isPresent() && m.status().equals("interrupted")) {
                return 128 + stop.signal().getAsInt();
            }
        } finally {
            progress.stop();
        }
        return RunSummary.exitStatus(m);
    }

    private RecordingConfig config() {
        BackpressurePolicy policy = policy();
        EmptyPath.refuse("-o", output, "a new or empty run directory");
        List<String> line = commandLine();
        return new RecordingConfig(Workloads.canonical(workload), subsystems(subsystems), swimlaneLevel, argsLevel, policy,
                Durations.parse("--backstop", backstop), Durations.parse("--stall-threshold", stallThreshold), pools,
                events, arch, schedulers, cores, output, line);
    }

    /** @return dfx's own command line, for run.json */
    List<String> commandLine() {
        List<String> line = new ArrayList<>(List.of("dfx"));
        line.addAll(spec.commandLine().getParseResult().originalArgs()); // from "record" on
        return line;
    }

    /** @return the policy of {@code --backpressure} */
    BackpressurePolicy policy() {
        return switch (backpressure.toLowerCase(Locale.ROOT)) {
            case "block" -> BackpressurePolicy.BLOCK;
            case "drop" -> BackpressurePolicy.DROP;
            default -> throw new UsageException("option --backpressure: '" + backpressure
                    + "' is not a policy; expected block or drop");
        };
    }

    /**
     * @return the subsystems of {@code -s}: a comma list of subsystem names, or {@code all} or {@code none} alone
     * @throws BadInputException naming {@code -s} for an empty list or name, an unknown name, or all/none in a list
     */
    static Set<Subsystem> subsystems(String list) {
        String l = list.trim().toLowerCase(Locale.ROOT); // names in any case, as every enum-like value
        if (l.equals(ALL)) {
            return EnumSet.allOf(Subsystem.class);
        }
        if (l.equals(NONE)) {
            return EnumSet.noneOf(Subsystem.class);
        }
        if (l.isEmpty()) {
            throw new UsageException("option -s: empty; expected a comma list of " + SUBSYSTEMS
                    + ", or all or none");
        }
        Set<Subsystem> s = EnumSet.noneOf(Subsystem.class);
        for (String part : l.split(",", -1)) {
            String id = part.trim();
            if (id.equals(ALL) || id.equals(NONE)) {
                throw new UsageException("option -s: '" + id + "' stands alone (-s " + id + "), not in a list such"
                        + " as '" + l + "'");
            }
            if (id.isEmpty()) {
                throw new UsageException("option -s: '" + l + "' has an empty name; expected a comma list of "
                        + SUBSYSTEMS);
            }
            try {
                s.add(Subsystem.of(id));
            } catch (BadInputException e) {
                throw new UsageException("option -s: " + e.getMessage() + " (or all or none, alone)", e);
            }
        }
        return s;
    }
}
