package dev.dfx.runtime.recording;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.error.IoErrors;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.spec.EventSyntaxException;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.RunLock;
import dev.dfx.runtime.RuntimeConfig;
import dev.dfx.runtime.probe.RuntimeShape;
import dev.dfx.runtime.subsystem.PipelineSettings;
import dev.dfx.runtime.subsystem.PoolSizes;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.runtime.subsystem.args.ArgsRecorder;
import dev.dfx.runtime.subsystem.deps.DepsRecorder;
import dev.dfx.runtime.subsystem.pmu.PmuCounters;
import dev.dfx.runtime.subsystem.pmu.PmuRecorder;
import dev.dfx.runtime.subsystem.scopes.ScopesRecorder;
import dev.dfx.runtime.subsystem.swimlane.SwimlaneRecorder;
import dev.dfx.runtime.workload.Workload;
import dev.dfx.runtime.workload.Workloads;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated recording: every option checked, the workload's data generated, each enabled subsystem's lanes laid
 * out and its pipeline configuration built, the memory it needs checked against the machine, and the run directory
 * created and found writable — all before any work starts, so bad input costs one clear line
 * ({@link BadInputException}) and nothing else. Subsystems are listed in the reference's teardown order
 * (swimlane, args, pmu, scopes, deps). Not thread-safe; used once, by {@link Recording}.
 */
public final class RecordingPlan {
    /** Folder of the default run directories, relative to the working directory. */
    public static final String RUNS = "dfx-runs";
    /** Most runs started in one second under ./dfx-runs (named STAMP, STAMP-2, ...) before giving up. */
    private static final int MAX_SAME_SECOND = 1000;
    private static final List<Subsystem> TEARDOWN =
            List.of(Subsystem.SWIMLANE, Subsystem.ARGS, Subsystem.PMU, Subsystem.SCOPES, Subsystem.DEPS);

    private final RecordingConfig config;
    private final RuntimeConfig runtime;
    private final Workload workload;
    private final List<SubsystemRecorder> recorders;
    private final PoolSizes pools;
    private final List<String> pmuNames;
    private final Path runDir;
    private final RunLock claim;

    private RecordingPlan(RecordingConfig config, RuntimeConfig runtime, Workload workload,
                          List<SubsystemRecorder> recorders, PoolSizes pools, List<String> pmuNames, Path runDir,
                          RunLock claim) {
        this.config = config;
        this.runtime = runtime;
        this.workload = workload;
        this.recorders = recorders;
        this.pools = pools;
        this.pmuNames = pmuNames;
        this.runDir = runDir;
        this.claim = claim;
    }

    /**
     * Validates {@code c} and prepares the run.
     *
     * @param c       what was asked for
     * @param workDir where {@code dfx-runs/} goes when no output directory was given
     * @return the plan
     * @throws BadInputException naming the option: unknown workload, level out of range, bad or impossible pool,
     *                           bad event list, too much memory for the machine, output directory that exists and is
     *                           not empty or cannot be created or written
     */
    public static RecordingPlan of(RecordingConfig c, Path workDir) {
        checkOptions(c); // before the workload generates its data
        return of(c, workDir, Workloads.create(c.workload()));
    }

    /**
     * Validates {@code c} and prepares the run of a given workload instance (e.g. a smaller one in a test); its
     * {@link Workload#name()} should be {@code c.workload()}.
     *
     * @see #of(RecordingConfig, Path)
     */
    public static RecordingPlan of(RecordingConfig c, Path workDir, Workload workload) {
        checkOptions(c);
        RuntimeConfig runtime = runtimeConfig(c);
        PoolSizes pools = PoolSizes.parse(c.pools(), c.subsystems());
        PipelineSettings settings = new PipelineSettings(pools, c.policy(), c.backstop(), c.stallThreshold());
        RuntimeShape shape = new RuntimeShape(runtime.schedulers(), runtime.cores(), RuntimeConfig.RINGS,
                runtime.window());
        PmuCounters counters = c.subsystems().contains(Subsystem.PMU) ? counters(c) : null;
        List<SubsystemRecorder> recorders = new ArrayList<>();
        try {
            for (Subsystem s : TEARDOWN) {
                if (c.subsystems().contains(s) && (s != Subsystem.ARGS || c.argsLevel() > 0)) {
                    recorders.add(switch (s) {
                        case SWIMLANE -> new SwimlaneRecorder(c.swimlaneLevel(), shape, settings);
                        case ARGS -> new ArgsRecorder(c.argsLevel(), shape, settings);
                        case PMU -> new PmuRecorder(shape, counters, settings);
                        case SCOPES -> new ScopesRecorder(settings);
                        case DEPS -> new DepsRecorder(settings);
                    });
                }
            }
            recorders.forEach(SubsystemRecorder::config);
            PoolBudget.check(recorders, pools, PoolBudget.physicalMemory());
        } catch (RuntimeException e) {
            if (counters != null) {
                counters.close();
            }
            throw e;
        }
        RunLock claim;
        try {
            claim = runDirectory(c.output(), workDir);
        } catch (RuntimeException e) {
            recorders.forEach(SubsystemRecorder::close);
            if (counters != null) {
                counters.close();
            }
            throw e;
        }
        return new RecordingPlan(c, runtime, workload, List.copyOf(recorders), pools,
                counters == null ? List.of() : counters.names(), claim.directory(), claim);
    }

    /** The checks that need no workload, pool or machine: levels and the pmu/subsystem combination. */
    private static void checkOptions(RecordingConfig c) {
        if (c.swimlaneLevel() < SwimlaneRecorder.MIN_LEVEL || c.swimlaneLevel() > SwimlaneRecorder.MAX_LEVEL) {
            throw new UsageException("option --swimlane-level: " + c.swimlaneLevel() + " is not a level; expected 1..4"
                    + " (1 core tasks, 2 + scheduler dispatch/finish, 3 + scheduler phases, 4 + orchestrator submits)");
        }
        if (c.argsLevel() < 0 || c.argsLevel() > ArgsRecorder.MAX_LEVEL) {
            throw new UsageException("option --args-level: " + c.argsLevel() + " is not a level; expected 0..3"
                    + " (0 off, 1 marked arguments, 2 all, 3 all metadata + marked payloads)");
        }
        if (c.pmuEvents() != null && !c.subsystems().contains(Subsystem.PMU)) {
            throw new UsageException("option -e: events are counted by the pmu subsystem, which -s leaves out");
        }
        architecture(c);
        checkDurations(c.backstop(), c.stallThreshold());
    }

    /**
     * The backstop is a positive 64-bit ns budget; a stall is a wait longer than the threshold and shorter than the
     * backstop (a wait that reaches the backstop expires), so the threshold must be below the backstop.
     */
    private static void checkDurations(Duration backstop, Duration stallThreshold) {
        Duration max = Duration.ofNanos(Long.MAX_VALUE);
        if (backstop.isNegative() || backstop.isZero() || backstop.compareTo(max) > 0) {
            throw new UsageException("option --backstop: " + backstop + " is not a duration of 1 ns to 2^63-1 ns");
        }
        if (stallThreshold.isNegative() || stallThreshold.compareTo(backstop) >= 0) {
            // either may have been left at its default: the line names both
            throw new UsageException("options --stall-threshold and --backstop: the stall threshold ("
                    + Durations.text(stallThreshold) + ") must be below the backstop (" + Durations.text(backstop)
                    + "), as a wait that long is a backstop expiry, not a stall");
        }
    }

    private static Architecture architecture(RecordingConfig c) {
        try {
            return Architecture.byName(c.accelArch());
        } catch (BadInputException e) {
            throw new UsageException("option --arch: " + e.getMessage(), e);
        }
    }

    private static RuntimeConfig runtimeConfig(RecordingConfig c) {
        try {
            return RuntimeConfig.defaults().withSchedulers(c.schedulers()).withCores(c.cores()).withKeepGraph(false);
        } catch (IllegalArgumentException e) {
            throw new UsageException("options -S/-C: " + e.getMessage(), e);
        }
    }

    private static PmuCounters counters(RecordingConfig c) {
        if (c.pmuEvents() == null) {
            return PmuCounters.jvmDefault();
        }
        try {
            return PmuCounters.events(PmuSystem.host(architecture(c)), c.pmuEvents());
        } catch (EventSyntaxException e) {
            // an event the list cannot name or parse: a usage error; one this machine cannot count stays bad input
            throw new UsageException("option -e: " + e.getMessage(), e);
        } catch (BadInputException e) {
            throw new BadInputException("option -e: " + e.getMessage(), e);
        }
    }

    /**
     * Claims the run directory: the given one ({@link RunLock#claim}), or a new {@code dfx-runs/<timestamp>[-N]},
     * created atomically so that recorders started in the same second each get their own. Either is made private
     * (mode 0700) before anything is written into it.
     *
     * @param given   the directory of {@code -o}, or null for a new one under {@code workDir/dfx-runs}
     * @param workDir the working directory
     * @return the claim
     * @throws BadInputException when the directory cannot be claimed (one line naming it and why)
     */
    public static RunLock runDirectory(Path given, Path workDir) {
        if (given != null) {
            return RunLock.claim(given, "option -o");
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path runs = workDir.resolve(RUNS);
        try {
            Files.createDirectories(runs);
        } catch (FileAlreadyExistsException e) { // a file, or a link to nowhere: every name below it would be "taken"
            throw new BadInputException("run directory: " + runs + " " + RunLock.notADirectory(runs), e);
        } catch (IOException e) {
            throw new BadInputException("run directory: cannot create " + runs + " (" + IoErrors.describe(e) + ")", e);
        }
        for (int i = 1; i <= MAX_SAME_SECOND; i++) {
            Path dir = runs.resolve(i == 1 ? stamp : stamp + "-" + i);
            try {
                Files.createDirectory(dir);
                return RunLock.claim(dir, "run directory");
            } catch (FileAlreadyExistsException e) {
                // another recorder took this one
            } catch (IOException e) {
                throw new BadInputException("run directory: cannot create " + dir + " (" + IoErrors.describe(e) + ")",
                        e);
            }
        }
        throw new BadInputException("run directory: " + MAX_SAME_SECOND + " runs named " + runs.resolve(stamp)
                + "[-N] already; give -o RUN");
    }

    /** @return what was asked for */
    public RecordingConfig config() {
        return config;
    }

    /** @return the runtime configuration */
    public RuntimeConfig runtime() {
        return runtime;
    }

    /** @return the workload, data generated */
    public Workload workload() {
        return workload;
    }

    /** @return the enabled subsystems' recorders, in teardown order */
    public List<SubsystemRecorder> recorders() {
        return recorders;
    }

    /** @return the pool sizes */
    public PoolSizes pools() {
        return pools;
    }

    /** @return the pmu counter names, empty when pmu is off */
    public List<String> pmuNames() {
        return pmuNames;
    }

    /** @return the run directory (created, empty but for the claim, writable) */
    public Path runDir() {
        return runDir;
    }

    /** Gives up the claim of the run directory (the recording wrote its final run.json, or never starts). */
    void releaseRunDir() {
        claim.close();
    }

    /** Frees what the plan holds when it will not be run (pmu counters, pipelines, the claim of the directory). */
    public void discard() {
        recorders.forEach(SubsystemRecorder::close);
        releaseRunDir();
    }
}
