package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import dev.dfx.error.UsageException;
import dev.dfx.exec.ProgramNotRunnable;
import dev.dfx.program.ProgramRecording;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.UserEvent;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.runtime.recording.Durations;
import dev.dfx.runtime.subsystem.PoolSize;
import dev.dfx.runtime.subsystem.PoolSizes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code dfx record [OPTIONS] -- COMMAND [ARGS...]}: the options of {@link RecordCommand} that apply to a program
 * (policy, backstop, stall threshold, {@code --pool user=COUNTxRECORDS}, {@code --lanes}, {@code -o}, {@code --quiet},
 * {@code --json}) checked before anything runs, then {@link ProgramRecording}. Everything dfx prints goes to standard
 * error, since standard output is the command's: the summary, or with {@code --json} the summary as JSON; with
 * {@code --quiet} nothing but {@code dfx:} lines (errors, the note that dfx waits for processes the command left
 * running, and one line when the recording failed, {@link RunSummary#quietLine}), as {@code perf record -q} prints nothing: name the run directory with {@code -o} to find it. SIGINT, SIGTERM and SIGHUP are passed on to the command (the terminal's
 * Ctrl-C reaches it directly too, as it is in dfx's process group); dfx collects until the command and every process
 * that attached to the region have ended. The exit status is the command's (128 + N when signal N ended it), 127 /
 * 126 when it cannot be started (not found / not executable) as in a shell, and 1 when the command succeeded but the
 * recording failed or lost records silently.
 */
final class RecordProgram {
    /** Options that configure the embedded runtime; a command is not recorded with them. */
    private static final List<String> RUNTIME_ONLY = List.of("--workload", "--subsystems", "--swimlane-level",
            "--args-level", "--event", "--arch", "--schedulers", "--cores");
    /**
     * The most lane slots {@code --lanes} takes: each slot reserves its pool's buffers in the region file (512 KiB
     * with the default 8x2048 pool, so 2 GiB at this bound), and a program with more recording threads than this
     * is better served by fewer, busier threads than by a region the host scans lane by lane.
     */
    static final int MAX_LANES = 4096;

    private final CommandLine.Model.CommandSpec spec;
    private final RecordCommand options;

    RecordProgram(CommandLine.Model.CommandSpec spec, RecordCommand options) {
        this.spec = spec;
        this.options = options;
    }

    int call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        ProgramRecording rec = new ProgramRecording(settings(), Path.of("").toAbsolutePath(), line -> {
            err.println(Main.errorLine(line));
            err.flush();
        });
        SignalHandlers handlers = SignalHandlers.install(List.of("INT", "TERM", "HUP"), (name, number) ->
                rec.signal(number));
        ProgramRecording.Result r;
        try {
            r = rec.run();
        } catch (ProgramNotRunnable e) {
            err.println(Main.errorLine(e.getMessage()));
            err.flush();
            return e.status();
        } finally {
            if (handlers != null) {
                handlers.close();
            }
        }
        if (r.manifestProblem() != null) {
            err.println(Main.errorLine(r.manifestProblem()));
        }
        try {
            if (options.json) {
                RunSummary.json(r.runDir(), r.manifest(), err);
            } else if (!options.quiet) {
                RunSummary.text(r.runDir(), r.manifest(), err);
            } else if (RunSummary.quietLine(r.runDir(), r.manifest(), r.noticed()) != null) {
                err.println(Main.errorLine(RunSummary.quietLine(r.runDir(), r.manifest(), r.noticed())));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        err.flush();
        int recording = RunSummary.exitStatus(r.manifest());
        return r.command().ok() && (recording != 0 || r.manifestProblem() != null) ? 1 : r.command().status();
    }

    private ProgramRecording.Settings settings() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        for (String o : RUNTIME_ONLY) {
            if (parsed.hasMatchedOption(o)) {
                throw new UsageException("option " + o + ": configures the embedded runtime, not a recorded command"
                        + " (dfx record -- COMMAND)");
            }
        }
        EmptyPath.refuse("-o", options.output, "a new or empty run directory");
        if (options.lanes < 1 || options.lanes > MAX_LANES) {
            throw new UsageException("option --lanes: " + options.lanes + " is not a lane count; expected 1 to "
                    + MAX_LANES);
        }
        PoolSize pool = new PoolSize(RegionSpec.DEFAULT_BUFFERS_PER_LANE, RegionSpec.DEFAULT_RECORDS_PER_BUFFER);
        String earlier = null;
        for (String o : options.pools) {
            if (earlier != null) {
                throw new UsageException("option --pool " + o + ": the user pool is given twice (--pool " + earlier
                        + " too); give it once");
            }
            pool = PoolSizes.size(o, List.of(ProgramReport.SUBSYSTEM), UserEvent.BYTES, ProgramReport.SUBSYSTEM + "="
                    + RegionSpec.DEFAULT_BUFFERS_PER_LANE + "x" + RegionSpec.DEFAULT_RECORDS_PER_BUFFER);
            earlier = o;
        }
        return new ProgramRecording.Settings(List.copyOf(options.command), options.policy(),
                Durations.parse("--backstop", options.backstop),
                Durations.parse("--stall-threshold", options.stallThreshold), pool, options.lanes, options.output,
                options.commandLine());
    }
}
