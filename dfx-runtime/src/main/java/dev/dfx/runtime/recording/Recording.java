package dev.dfx.runtime.recording;

import dev.dfx.chunk.RunId;
import dev.dfx.error.IoErrors;
import dev.dfx.pipeline.Collector;
import dev.dfx.pipeline.HostGroup;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.OutputSeal;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.RunControl;
import dev.dfx.runtime.RunResult;
import dev.dfx.runtime.TaskFailedException;
import dev.dfx.runtime.TaskRuntime;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.runtime.subsystem.deps.DepsJson;
import dev.dfx.runtime.subsystem.deps.DepsRecorder;
import dev.dfx.runtime.workload.WorkloadCheckException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * One recording session ({@code dfx record}, docs/run-directory.md): writes a {@code running} manifest, starts the enabled
 * subsystems' pipelines on one {@link HostGroup} (two host threads for all five: a host loop that runs every drain
 * shard and replenisher, and a collector worker, plus a spare while a collector is wedged), runs the workload on the embedded runtime with their probes (each runtime thread flushes its
 * own lanes as it ends), stops the pipelines in the reference's teardown order (each stop does the final passes,
 * recovers un-flushed buffers and reconciles), exports each subsystem's output file from its chunk file while the
 * workload's check runs, runs the extra exports (the trace), and writes the final {@code run.json}. A run that fails or is cancelled half way still
 * stops, exports what it can and writes a manifest that says so.
 *
 * <p>Thread-safety: {@link #run} on one thread, once. {@link #cancel}, {@link #progress()} and
 * {@link #awaitFinished} from any thread (e.g. a Ctrl-C hook and a progress ticker).
 */
public final class Recording {
    /**
     * Writes one more output file from the chunk files (e.g. the trace export), on the session's thread while another
     * thread writes the subsystems' outputs.
     */
    @FunctionalInterface
    public interface Export {
        /**
         * @param runDir   the run directory
         * @param manifest the manifest so far (subsystem reports final; outputs: the chunk files only)
         * @param deps     the dependency edges the deps subsystem replays (when first asked for), or why there are none
         * @return what was written
         * @throws IOException when a file cannot be read or written
         */
        OutputFile export(Path runDir, RunManifest manifest, DependencyEdges deps) throws IOException;
    }

    /**
     * A live view of a recording.
     *
     * @param phase     {@code starting}, {@code running}, {@code stopping}, {@code exporting} or {@code done}
     * @param elapsedNs since recording started
     * @param total     records attempted so far, all subsystems
     * @param collected records collected so far
     * @param dropped   records dropped so far
     */
    public record Progress(String phase, long elapsedNs, long total, long collected, long dropped) {
    }

    private final RecordingPlan plan;
    private final UnaryOperator<Collector> faults;
    private final RunControl control = new RunControl();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final FunctionNames names = new FunctionNames();
    private final RunManifest.Config config;
    private final RunManifest.Host host = ManifestFacts.host();
    private final AtomicReference<String> writeFailure = new AtomicReference<>();
    /** Per subsystem, the records its collector could not write (see {@link #watched}). */
    private final Map<SubsystemRecorder, WriteLoss.Refused> refused = new ConcurrentHashMap<>();
    private final RunId runId = RunId.random();
    private volatile String phase = "starting";
    private volatile long originNs;
    private volatile String manifestProblem;

    /** @param plan a validated plan, run at most once */
    public Recording(RecordingPlan plan) {
        this(plan, UnaryOperator.identity());
    }

    /**
     * @param plan   a validated plan, run at most once
     * @param faults wraps each subsystem's collector (tests: a collector that fails as a full disk does)
     */
    Recording(RecordingPlan plan, UnaryOperator<Collector> faults) {
        this.plan = plan;
        this.faults = faults;
        this.config = ManifestFacts.config(plan);
    }

    /** @return the run directory */
    public Path runDir() {
        return plan.runDir();
    }

    /**
     * Records the run. A file of the run directory that cannot be written (a full disk) ends the recording early:
     * the runtime is cancelled, the pipelines stop, what reached the chunk files stays readable, and run.json says
     * {@code failed} and why; space kept at the start makes room for it ({@link ManifestReserve}).
     *
     * @param extra more exports to run once the subsystems' outputs exist, in order
     * @return the final manifest (also in {@code run.json}, unless {@link #manifestProblem()} says otherwise)
     * @throws UncheckedIOException when not even the first run.json can be written (nothing was recorded)
     */
    public RunManifest run(List<Export> extra) {
        try {
            return record(extra);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            plan.releaseRunDir();
            phase = "done";
            finished.countDown();
        }
    }

    /**
     * @return why the final run.json could not be written (it then still says {@code running}), after {@link #run};
     *         empty when it was written
     */
    public Optional<String> manifestProblem() {
        return Optional.ofNullable(manifestProblem);
    }

    private RunManifest record(List<Export> extra) throws IOException {
        Path dir = plan.runDir();
        Instant start = Instant.now();
        originNs = System.nanoTime();
        long epochNs = start.getEpochSecond() * 1_000_000_000L + start.getNano();
        RunManifest.Clock clock = RunManifest.Clock.nanoTime(originNs, epochNs);
        ManifestFile.write(dir, manifest(Outcome.RUNNING, null, clock, start, null, 0, workload(0, 0, "skipped"),
                List.of(), List.of()));
        ManifestReserve reserve = ManifestReserve.forLanes(dir,
                plan.recorders().stream().mapToLong(r -> r.plan().lanes().size()).sum());
        Outcome outcome = new Outcome();
        List<SubsystemRecorder> started = new ArrayList<>();
        Ran ran;
        List<RunManifest.SubsystemReport> reports;
        try (HostGroup hostThreads = HostGroup.builder("record").build()) {
            ran = runWorkload(dir, hostThreads, started, outcome);
            phase = "stopping";
            reports = stop(started, refused, ran.workload().wallNs(), outcome);
        }
        phase = "exporting";
        // the outputs thread starts first: the workload's check runs on this thread while it writes them
        CompletableFuture<List<List<OutputFile>>> own = exportOwn(dir, started, outcome);
        // the deps replay starts now, on a thread of its own; deps.json and the trace's arrows wait for its edges
        DependencyEdges deps = dependencyEdges(dir, started);
        deps.replayAhead();
        RunManifest.Workload w = ran.completed() ? checked(ran.workload(), outcome) : ran.workload();
        List<OutputFile> outputs = exportAll(dir, started, own, deps, extra, outcome, clock, start, w, reports);
        started.forEach(SubsystemRecorder::close);
        String failure = writeFailure.get();
        if (failure != null) {
            outcome.failed(failure); // after the run too: the final drain may be what failed
        }
        if (control.cancelled()) {
            outcome.interrupted(control.reason());
        }
        RunManifest done = manifest(outcome.status(), outcome.reason(), clock, start, Instant.now().toString(),
                System.nanoTime() - originNs, w, reports, outputs);
        reserve.release();
        return writeFinal(dir, done);
    }

    /**
     * What the runtime ran.
     *
     * @param workload  its tasks and wall time; check {@code skipped}
     * @param completed whether every task ran, so that the workload's check is to run ({@link #checked})
     */
    private record Ran(RunManifest.Workload workload, boolean completed) {
    }

    /** Starts the pipelines on the recording's host threads and runs the workload; returns what the runtime ran. */
    private Ran runWorkload(Path dir, HostGroup hostThreads, List<SubsystemRecorder> started, Outcome outcome) {
        long wallNs = 0;
        boolean completed = false;
        long tasks = plan.workload().expectedTasks();
        try {
            for (SubsystemRecorder r : plan.recorders()) {
                r.start(dir, runId, hostThreads, c -> watched(r, faults.apply(c)));
                started.add(r);
            }
            Probe probe = started.isEmpty() ? Probe.NONE : new RecordingProbe(started, names);
            phase = "running";
            long t0 = System.nanoTime();
            try {
                RunResult result = TaskRuntime.run(plan.runtime(), probe, plan.workload(), control);
                wallNs = result.wallNanos();
                tasks = result.tasks();
                completed = true;
            } catch (TaskFailedException e) {
                wallNs = System.nanoTime() - t0;
                String failure = writeFailure.get();
                if (failure != null) {
                    outcome.failed(failure);
                } else if (control.cancelled()) {
                    outcome.interrupted(control.reason());
                } else {
                    outcome.failed(e.getMessage());
                }
            }
        } catch (RuntimeException | IOException e) {
            outcome.failed(describe(e));
        }
        return new Ran(workload(tasks, wallNs, "skipped"), completed);
    }

    /**
     * Runs the workload's check (after the pipelines stopped: it reads only the workload's own data, so it overlaps
     * the outputs, which read only the chunk files); a mismatch fails the run.
     *
     * @return {@code ran} with the check's result ({@code skipped} when the check itself threw)
     */
    private RunManifest.Workload checked(RunManifest.Workload ran, Outcome outcome) {
        String check = "skipped";
        try {
            check = check();
            if (!check.equals("ok")) {
                outcome.failed("workload check failed: " + check);
            }
        } catch (RuntimeException e) {
            outcome.failed(describe(e));
        }
        return workload(ran.tasks(), ran.wallNs(), check);
    }

    /** Stops each pipeline (final passes, reconcile) and closes its chunk file; returns the subsystem reports. */
    private static List<RunManifest.SubsystemReport> stop(List<SubsystemRecorder> started,
                                                          Map<SubsystemRecorder, WriteLoss.Refused> refused,
                                                          long wallNs, Outcome outcome) {
        List<RunManifest.SubsystemReport> reports = new ArrayList<>();
        for (SubsystemRecorder r : started) {
            PipelineStats s;
            try {
                s = r.stop();
            } catch (IOException | RuntimeException e) {
                outcome.problem("chunks/" + r.id().id() + ".dfx not completed: " + describe(e));
                s = r.stats(); // the pipeline stopped; only its chunk file could not be completed
            }
            reports.add(WriteLoss.apply(SubsystemReports.of(r, s, wallNs), r.plan(), r.chunksLost(),
                    refused.getOrDefault(r, new WriteLoss.Refused())));
        }
        return reports;
    }

    /**
     * Starts writing the subsystems' outputs from their chunk files on a thread of their own; {@link #exportAll} joins
     * it. deps.json asks for the replayed edges only after its tasks and tensors, and the replay runs meanwhile on a
     * thread of its own ({@link DependencyEdges#replayAhead}), beside this thread's other outputs instead of before
     * them.
     *
     * @return each started subsystem's outputs, in subsystem order (fewer when an Error stopped the thread)
     */
    private static CompletableFuture<List<List<OutputFile>>> exportOwn(Path dir, List<SubsystemRecorder> started,
                                                                       Outcome outcome) {
        return CompletableFuture.supplyAsync(() -> {
            List<List<OutputFile>> each = new ArrayList<>();
            try {
                for (SubsystemRecorder r : started) {
                    each.add(sealed(dir, exportOne(dir, r, outcome)));
                }
            } catch (Throwable e) { // an Error (out of memory): the outputs not written are named, the run still ends
                outcome.problem("outputs not written: " + e);
            }
            return each;
        }, task -> Thread.ofPlatform().name("dfx-record-export").start(task));
    }

    /**
     * Writes every output from the chunk files: the subsystems' outputs on a thread of their own ({@code own}, started
     * by {@link #exportOwn}) while this thread runs the extra exports (the trace), which share the deps replay
     * ({@code deps}) instead of replaying the chunk file again.
     * Post-recording work is where a user waits; on two or more CPUs the threads overlap.
     *
     * @return every file of the run directory: chunk files and subsystem outputs in subsystem order, then the extras;
     *         the outputs sealed ({@link OutputSeal})
     */
    private List<OutputFile> exportAll(Path dir, List<SubsystemRecorder> started,
                                       CompletableFuture<List<List<OutputFile>>> own, DependencyEdges deps,
                                       List<Export> extra, Outcome outcome, RunManifest.Clock clock, Instant start,
                                       RunManifest.Workload w, List<RunManifest.SubsystemReport> reports) {
        List<OutputFile> chunks = new ArrayList<>();
        for (SubsystemRecorder r : started) {
            chunks.add(chunkFile(r));
        }
        List<OutputFile> extras = new ArrayList<>();
        if (!extra.isEmpty()) {
            RunManifest m = manifest(outcome.status(), outcome.reason(), clock, start, null, 0, w, reports, chunks);
            for (Export e : extra) {
                try {
                    extras.add(OutputSeal.seal(dir, e.export(dir, m, deps)));
                } catch (IOException | RuntimeException ex) {
                    outcome.problem("export not written: " + describe(ex));
                }
            }
        }
        List<List<OutputFile>> each = own.join();
        List<OutputFile> outputs = new ArrayList<>();
        for (int i = 0; i < started.size(); i++) {
            outputs.add(chunks.get(i));
            outputs.addAll(i < each.size() ? each.get(i) : List.of());
        }
        outputs.addAll(extras);
        return outputs;
    }

    /**
     * @return {@code outputs} with their sizes and CRC32s, for report to check later: read back by the thread that
     *         wrote them, while the other threads still write theirs
     */
    private static List<OutputFile> sealed(Path dir, List<OutputFile> outputs) {
        List<OutputFile> s = new ArrayList<>(outputs.size());
        for (OutputFile o : outputs) {
            s.add(OutputSeal.seal(dir, o));
        }
        return s;
    }

    private static OutputFile chunkFile(SubsystemRecorder r) {
        String chunks = "chunks/" + r.id().id() + ".dfx";
        return WriteLoss.chunkFile(chunks, r.chunkFileComplete(), r.chunkRecordsOnDisk());
    }

    /** Writes one subsystem's outputs from its chunk file; a failure is a problem of the outcome. */
    private static List<OutputFile> exportOne(Path dir, SubsystemRecorder r, Outcome outcome) {
        try {
            return r.export(dir);
        } catch (IOException | RuntimeException e) {
            outcome.problem(r.id().id() + " outputs not written: " + describe(e));
            return List.of();
        }
    }

    /**
     * The deps subsystem's edges, replayed once for deps.json and the trace by whichever asks first, or why the trace
     * draws no arrows: the reasons {@code dfx export} gives for a run directory (deps.json refused, chunk file
     * incomplete). A replay that fails is left to the deps export to report.
     */
    private static DependencyEdges dependencyEdges(Path dir, List<SubsystemRecorder> started) {
        DepsRecorder deps = null;
        for (SubsystemRecorder r : started) {
            if (r instanceof DepsRecorder d) {
                deps = d;
            }
        }
        if (deps == null) {
            return DependencyEdges.none("deps not recorded");
        }
        String refused = deps.refusal();
        if (refused != null) {
            return DependencyEdges.none(refused);
        }
        if (!deps.chunkFileComplete()) {
            return DependencyEdges.none("chunks/" + deps.id().id() + ".dfx is damaged or missing");
        }
        DepsRecorder replayed = deps;
        return DependencyEdges.replayed(() -> replayed.replay(dir), DepsJson.FILE + " not written");
    }

    /**
     * Writes the final run.json, trying hard: when the whole manifest does not fit on the disk, once more without
     * the lanes' stall windows (counted as omitted) and drop windows; when that fails too, the failure is kept for
     * {@link #manifestProblem()}.
     */
    private RunManifest writeFinal(Path dir, RunManifest done) {
        try {
            return ManifestFile.writeFinal(dir, done);
        } catch (IOException again) {
            manifestProblem = "cannot write the final " + ManifestFile.of(dir) + " (" + IoErrors.describe(again)
                    + "); it still says running, and the recording " + (done.status().equals(Outcome.OK)
                    ? "ended ok" : "ended " + done.status() + ": " + done.reason());
            return done;
        }
    }

    /**
     * The subsystem's collector, which ends the recording at the first file it cannot write; the records of every
     * buffer it could not write are counted as lost to the write ({@link WriteLoss.Refused}).
     */
    private Collector watched(SubsystemRecorder r, Collector c) {
        WriteLoss.Refused lost = refused.computeIfAbsent(r, k -> new WriteLoss.Refused());
        return b -> {
            try {
                c.accept(b);
            } catch (IOException e) {
                lost.add(b.lane(), b.recordCount());
                // the write that failed the file, which another lane's collector may have made
                IOException first = r.chunkFailure();
                String why = "writing the " + r.id().id() + " files failed ("
                        + IoErrors.describe(first == null ? e : first)
                        + "); recording stopped early";
                if (writeFailure.compareAndSet(null, why)) {
                    control.cancel(why);
                }
                throw e;
            }
        };
    }

    private static String describe(Exception e) {
        return switch (e) {
            case IOException io -> IoErrors.describe(io);
            case UncheckedIOException io -> IoErrors.describe(io);
            default -> e.getMessage() == null ? e.toString() : e.getMessage();
        };
    }

    private String check() {
        try {
            plan.workload().check();
            return "ok";
        } catch (WorkloadCheckException e) {
            return e.getMessage();
        }
    }

    private RunManifest.Workload workload(long tasks, long wallNs, String check) {
        return new RunManifest.Workload(plan.config().workload(), tasks, wallNs, check);
    }

    private RunManifest manifest(String status, String reason, RunManifest.Clock clock, Instant start, String end,
                                 long wallNs, RunManifest.Workload w, List<RunManifest.SubsystemReport> reports,
                                 List<OutputFile> outputs) {
        Map<String, String> functions = new LinkedHashMap<>();
        names.names().forEach((id, n) -> functions.put(Integer.toString(id), n));
        return new RunManifest(RunManifest.FORMAT, RunManifest.VERSION, runId.toString(), status, reason, plan.config().commandLine(),
                config, clock, host, start.toString(), end, wallNs, w, functions, reports, outputs, null);
    }

    /**
     * Stops the run early (Ctrl-C): the runtime threads end and flush their lanes, and the session stops the
     * pipelines, exports and writes a manifest with status {@code interrupted}. Any thread.
     *
     * @param why one line, e.g. {@code stopped by SIGINT}
     */
    public void cancel(String why) {
        control.cancel(why);
    }

    /**
     * Waits until {@link #run} has written the final manifest (or failed).
     *
     * @return false when the timeout passed first
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    /** @return where the recording stands; any thread */
    public Progress progress() {
        long total = 0;
        long collected = 0;
        long dropped = 0;
        for (SubsystemRecorder r : plan.recorders()) {
            PipelineStats s = r.stats();
            if (s != null) {
                total += s.total();
                collected += s.collected();
                dropped += s.dropped();
            }
        }
        long origin = originNs;
        return new Progress(phase, origin == 0 ? 0 : System.nanoTime() - origin, total, collected, dropped);
    }
}
