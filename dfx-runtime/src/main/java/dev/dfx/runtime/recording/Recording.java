package dev.dfx.runtime.recording;

import dev.dfx.pipeline.PipelineStats;
import dev.dfx.runtime.RunControl;
import dev.dfx.runtime.RunResult;
import dev.dfx.runtime.TaskFailedException;
import dev.dfx.runtime.TaskRuntime;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.subsystem.OutputFile;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.runtime.workload.WorkloadCheckException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One recording session ({@code dfx record}, DESIGN.md §6–§7): writes a {@code running} manifest, starts the enabled
 * subsystems' pipelines, runs the workload on the embedded runtime with their probes (each runtime thread flushes its
 * own lanes as it ends), stops the pipelines in the reference's teardown order (each stop does the final passes,
 * recovers un-flushed buffers and reconciles), exports each subsystem's output file from its chunk file, runs the
 * extra exports (the trace), and writes the final {@code run.json}. A run that fails or is cancelled half way still
 * stops, exports what it can and writes a manifest that says so.
 *
 * <p>Thread-safety: {@link #run} on one thread, once. {@link #cancel}, {@link #progress()} and
 * {@link #awaitFinished} from any thread (e.g. a Ctrl-C hook and a progress ticker).
 */
public final class Recording {
    /** Writes one more output file once the subsystems' outputs exist (e.g. the trace export). */
    @FunctionalInterface
    public interface Export {
        /**
         * @param runDir   the run directory
         * @param manifest the manifest so far (subsystem reports final, outputs not yet)
         * @return what was written
         * @throws IOException when a file cannot be read or written
         */
        OutputFile export(Path runDir, RunManifest manifest) throws IOException;
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
    private final RunControl control = new RunControl();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final FunctionNames names = new FunctionNames();
    private final RunManifest.Config config;
    private final RunManifest.Host host = ManifestFacts.host();
    private volatile String phase = "starting";
    private volatile long originNs;

    /** @param plan a validated plan, run at most once */
    public Recording(RecordingPlan plan) {
        this.plan = plan;
        this.config = ManifestFacts.config(plan);
    }

    /** @return the run directory */
    public Path runDir() {
        return plan.runDir();
    }

    /**
     * Records the run.
     *
     * @param extra more exports to run once the subsystems' outputs exist, in order
     * @return the final manifest (also in {@code run.json})
     * @throws UncheckedIOException when the run directory cannot be written
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

    private RunManifest record(List<Export> extra) throws IOException {
        Path dir = plan.runDir();
        Instant start = Instant.now();
        originNs = System.nanoTime();
        long epochNs = start.getEpochSecond() * 1_000_000_000L + start.getNano();
        RunManifest.Clock clock = new RunManifest.Clock("System.nanoTime", 1_000_000_000L, originNs, epochNs);
        ManifestFile.write(dir, manifest("running", null, clock, start, null, 0, workload(0, 0, "skipped"),
                List.of(), List.of()));
        String status = "ok";
        String reason = null;
        long wallNs = 0;
        String check = "skipped";
        long tasks = plan.workload().expectedTasks();
        List<SubsystemRecorder> started = new ArrayList<>();
        try {
            for (SubsystemRecorder r : plan.recorders()) {
                r.start(dir);
                started.add(r);
            }
            Probe probe = started.isEmpty() ? Probe.NONE : new RecordingProbe(started, names);
            phase = "running";
            long t0 = System.nanoTime();
            try {
                RunResult result = TaskRuntime.run(plan.runtime(), probe, plan.workload(), control);
                wallNs = result.wallNanos();
                tasks = result.tasks();
                check = check();
                if (!check.equals("ok")) {
                    status = "failed";
                    reason = "workload check failed: " + check;
                }
            } catch (TaskFailedException e) {
                wallNs = System.nanoTime() - t0;
                status = control.cancelled() ? "interrupted" : "failed";
                reason = control.cancelled() ? control.reason() : e.getMessage();
            }
        } catch (RuntimeException | IOException e) {
            status = "failed";
            reason = e.toString();
        }
        phase = "stopping";
        List<RunManifest.SubsystemReport> reports = new ArrayList<>();
        List<OutputFile> outputs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (SubsystemRecorder r : started) {
            PipelineStats s;
            try {
                s = r.stop();
            } catch (IOException | RuntimeException e) {
                problems.add(r.id().id() + ": " + e.getMessage());
                s = r.stats(); // the pipeline stopped; only its chunk file could not be completed
            }
            reports.add(SubsystemReports.of(r, s, wallNs));
        }
        phase = "exporting";
        RunManifest.Workload w = workload(tasks, wallNs, check);
        for (SubsystemRecorder r : started) {
            outputs.add(OutputFile.written("chunks/" + r.id().id() + ".dfx", r.stats().collected()));
            try {
                outputs.addAll(r.export(dir));
            } catch (IOException | RuntimeException e) {
                problems.add(r.id().id() + " export: " + e.getMessage());
            }
        }
        RunManifest m = manifest(status, reason, clock, start, null, 0, w, reports, outputs);
        for (Export e : extra) {
            try {
                outputs.add(e.export(dir, m));
            } catch (IOException | RuntimeException ex) {
                problems.add("export: " + ex.getMessage());
            }
        }
        started.forEach(SubsystemRecorder::close);
        if (!problems.isEmpty()) {
            status = status.equals("interrupted") ? status : "failed";
            reason = (reason == null ? "" : reason + "; ") + String.join("; ", problems);
        }
        if (control.cancelled() && status.equals("ok")) {
            status = "interrupted";
            reason = control.reason();
        }
        Instant end = Instant.now();
        RunManifest done = manifest(status, reason, clock, start, end.toString(), System.nanoTime() - originNs, w,
                reports, outputs);
        ManifestFile.write(dir, done);
        return done;
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
        return new RunManifest(RunManifest.FORMAT, RunManifest.VERSION, status, reason, plan.config().commandLine(),
                config, clock, host, start.toString(), end, wallNs, w, functions, reports, outputs);
    }

    /**
     * Stops the run early (Ctrl-C): the runtime threads end and flush their lanes, and the session stops the
     * pipelines, exports and writes a manifest with status {@code interrupted}. Any thread.
     *
     * @param why one line, e.g. {@code interrupted (SIGINT)}
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
