package dev.dfx.runtime;

/**
 * Lets another thread stop a run early (a recorder's Ctrl-C handler): {@link #cancel} makes every runtime thread
 * leave its loop as after a failure, so each closes its lane probes (flushing them) and
 * {@link TaskRuntime#run(RuntimeConfig, dev.dfx.runtime.probe.Probe, Program, RunControl)} throws a
 * {@link TaskFailedException} naming the reason. Tasks already running finish; the rest never run.
 *
 * <p>Thread-safe: one instance per run; {@link #cancel} from any thread, before, during or after the run. The run's
 * state (its tasks, the resolver's tensor map) is referenced only while the run lasts: a recorder keeps its control
 * through the post-recording work, and a finished run held there would make every young collection of that work
 * copy the whole task graph (some 50 MB for flood's 65 536 tasks).
 */
public final class RunControl {
    private RunState run;
    private String reason;

    /**
     * Stops the run (or makes it stop as soon as it starts). Later calls do nothing.
     *
     * @param why one line, e.g. {@code "interrupted (SIGINT)"}
     */
    public synchronized void cancel(String why) {
        if (reason != null) {
            return;
        }
        reason = why;
        if (run != null) {
            run.abort("cancelled: " + why, null);
        }
    }

    /** @return whether {@link #cancel} was called */
    public synchronized boolean cancelled() {
        return reason != null;
    }

    /** @return the reason given to {@link #cancel}, or null */
    public synchronized String reason() {
        return reason;
    }

    /** Binds the run once its threads' idlers exist; a cancel that came first takes effect now. */
    synchronized void attach(RunState rs) {
        run = rs;
        if (reason != null) {
            rs.abort("cancelled: " + reason, null);
        }
    }

    /** Lets go of the run once its threads ended: a later {@link #cancel} only records its reason. */
    synchronized void detach() {
        run = null;
    }

    /** @return whether a run is bound (between {@link #attach} and {@link #detach}) */
    synchronized boolean attached() {
        return run != null;
    }
}
