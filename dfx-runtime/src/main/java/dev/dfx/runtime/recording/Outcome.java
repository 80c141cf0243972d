package dev.dfx.runtime.recording;

import dev.dfx.rundir.RunManifest;
import java.util.ArrayList;
import java.util.List;

/**
 * How a recording ended, built up while it stops: {@code ok}, {@code interrupted} (cancelled) or {@code failed},
 * with the reason. The first cause of a failure is the reason; later problems (a file that could not be completed
 * or exported) are appended, and turn an {@code ok} run into a failed one. Thread-safe (the session's thread and its
 * export thread).
 */
final class Outcome {
    /** The status of the run.json written at the start, until the final one replaces it. */
    static final String RUNNING = RunManifest.RUNNING;
    static final String OK = "ok";
    static final String INTERRUPTED = "interrupted";
    static final String FAILED = "failed";

    private String status = OK;
    private String reason;
    private final List<String> problems = new ArrayList<>();

    /** The run failed for {@code why}, unless it already failed or was interrupted. */
    synchronized void failed(String why) {
        if (status.equals(OK)) {
            status = FAILED;
            reason = why;
        }
    }

    /** The run was cancelled for {@code why}, unless it already failed. */
    synchronized void interrupted(String why) {
        if (status.equals(OK)) {
            status = INTERRUPTED;
            reason = why;
        }
    }

    /** A step after the run went wrong: noted, and the run counts as failed unless it was interrupted. */
    synchronized void problem(String what) {
        problems.add(what);
    }

    synchronized String status() {
        return problems.isEmpty() || status.equals(INTERRUPTED) ? status : FAILED;
    }

    synchronized String reason() {
        if (problems.isEmpty()) {
            return reason;
        }
        return (reason == null ? "" : reason + "; ") + String.join("; ", problems);
    }
}
