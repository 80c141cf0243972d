package dev.dfx.export;

import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.ThreadRole;

/**
 * Where each runtime thread's rows are in a run's trace: processes Orchestrator ({@link #ORCH}), Schedulers
 * ({@link #SCHED}) and Cores ({@link #CORES}), named and sorted in that order; per thread a base tid for its bars
 * (sub-lanes follow it), a stall row and a drop row at the end of its tid span. Not thread-safe.
 */
final class TraceLayout implements StallRows {
    /** Process ids. */
    static final int ORCH = 1, SCHED = 2, CORES = 3;

    private final TraceRows rows;

    TraceLayout(TraceSink w) {
        this.rows = new TraceRows(w);
        w.process(ORCH, "Orchestrator", 0);
        w.process(SCHED, "Schedulers", 1);
        w.process(CORES, "Cores", 2);
    }

    private TraceLayout(TraceRows rows) {
        this.rows = rows;
    }

    /**
     * @param part the sink of a part of the trace ({@link TraceSink#defer}) that draws on rows this layout does not
     * @return the same layout for the part, which names its rows on the part's sink as it first draws on them; this
     *         layout does not learn of them
     */
    TraceLayout forPart(TraceSink part) {
        return new TraceLayout(new TraceRows(part));
    }

    /** @return the tid of sub-lane {@code sub} of core {@code c}'s task bars */
    int core(int c, int sub) {
        return rows.tid(CORES, (c + 1) * 2 * TraceRows.SPAN, "core ", c, "", sub);
    }

    /** @return the tid of sub-lane {@code sub} of scheduler {@code s}'s phase bars */
    int schedPhases(int s, int sub) {
        return rows.tid(SCHED, (s + 1) * 4 * TraceRows.SPAN, "sched ", s, " phases", sub);
    }

    /** @return the tid of sub-lane {@code sub} of scheduler {@code s}'s dispatch-to-finish bars */
    int schedTasks(int s, int sub) {
        return rows.tid(SCHED, ((s + 1) * 4 + 2) * TraceRows.SPAN, "sched ", s, " tasks", sub);
    }

    /** @return the tid of sub-lane {@code sub} of the orchestrator's submit bars */
    int orchSubmits(int sub) {
        return rows.tid(ORCH, 2 * TraceRows.SPAN, "submits", sub);
    }

    /** @return the process of a thread's rows */
    static int pid(ThreadRole role) {
        return switch (role) {
            case CORE -> CORES;
            case SCHEDULER -> SCHED;
            case ORCHESTRATOR -> ORCH;
        };
    }

    @Override
    public Row stallRow(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        ThreadRole role = ThreadRole.of(l.role());
        return new Row(pid(role), stall(role, l.instance()));
    }

    @Override
    public Row dropRow(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        ThreadRole role = ThreadRole.of(l.role());
        return new Row(pid(role), lossRow(role, l.instance(), TraceRows.SPAN / 2, "DROPPED"));
    }

    @Override
    public int pid(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        return pid(ThreadRole.of(l.role()));
    }

    @Override
    public int pid(RunManifest.SubsystemReport s, RunManifest.Queue q) {
        return pid(ThreadRole.of(q.role()));
    }

    /** @return the tid of the stall row of thread ({@code role}, {@code instance}), named on first use */
    int stall(ThreadRole role, int instance) {
        return lossRow(role, instance, 0, "STALL");
    }

    /**
     * @return the tid of a loss row of thread ({@code role}, {@code instance}): its stall row ({@code offset} 0) or
     *         its drop row, half a span after it, in the tid span after the thread's bars
     */
    private int lossRow(ThreadRole role, int instance, int offset, String what) {
        return switch (role) {
            case CORE -> rows.tid(CORES, (instance + 1) * 2 * TraceRows.SPAN + TraceRows.SPAN + offset,
                    "core " + instance + " " + what, 0);
            case SCHEDULER -> rows.tid(SCHED, ((instance + 1) * 4 + 1) * TraceRows.SPAN + offset,
                    "sched " + instance + " " + what, 0);
            case ORCHESTRATOR -> rows.tid(ORCH, 3 * TraceRows.SPAN + offset, "orchestrator " + what, 0);
        };
    }
}
