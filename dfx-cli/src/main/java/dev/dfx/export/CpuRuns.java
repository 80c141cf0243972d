package dev.dfx.export;

import java.util.Map;
import java.util.TreeMap;

/**
 * Per-cpu swimlanes of which task ran when, from {@code sched_switch} events: process {@value #CPUS} "CPUs", one
 * thread per cpu named {@code CPU n}, and one complete slice per task run, from the switch that put the task on
 * the cpu to the switch that took it off, named {@code comm pid} (the comm it left with, which an exec may have
 * changed) and carrying the state it left in ({@code prev_state} as perf prints it). A switch whose switched-out
 * task is not the one that was switched in (a switch event missing from the recording) still ends the running
 * slice, named after the task switched in, with {@code switched_out} naming the other task, as Perfetto's own
 * sched importer ends it. The time before a cpu's first switch is left empty (who ran then is unknown); the task
 * running at the end of the recording gets a slice up to the end.
 * Times are ns, written exactly. Switches must come in time order per cpu (perf's processing order).
 * Not thread-safe.
 */
final class CpuRuns {
    /** Process id of the cpu swimlanes. */
    static final int CPUS = 1;

    private record Run(String comm, int pid, long startNs) {
    }

    private final TraceSink w;
    private final TraceRows rows;
    private final Map<Integer, Run> running = new TreeMap<>();
    private long slices;
    /** The args of the slice being drawn, refilled per slice. */
    private final TraceArgs args = new TraceArgs();

    CpuRuns(TraceSink w, TraceRows rows) {
        this.w = w;
        this.rows = rows;
        w.process(CPUS, "CPUs", 0);
    }

    /** @return the tid of cpu {@code cpu}'s swimlane, named on first use */
    int tid(int cpu) {
        return rows.tid(CPUS, (cpu + 1) * TraceRows.SPAN, "CPU ", cpu, "", 0);
    }

    /**
     * A {@code sched_switch} on {@code cpu} at {@code ns}: ends the running task's slice, starts the next task's.
     *
     * @param prevState how perf prints the switched-out task's state (e.g. {@code S}, {@code R+})
     */
    void switched(int cpu, long ns, String prevComm, int prevPid, String prevState, String nextComm, int nextPid) {
        int tid = tid(cpu);
        Run ended = running.put(cpu, new Run(nextComm, nextPid, ns));
        if (ended == null) {
            return;
        }
        TraceArgs args = this.args.reset().add("prev_state", prevState);
        String name = prevComm + " " + prevPid;
        if (ended.pid() != prevPid) {
            args.add("switched_out", name);
            name = ended.comm() + " " + ended.pid();
        }
        w.complete(CPUS, tid, name, "sched", ended.startNs(), Math.max(0, ns - ended.startNs()), args);
        slices++;
    }

    /** Ends every running task's slice at {@code endNs}, the last timestamp of the recording. */
    void finish(long endNs) {
        for (Map.Entry<Integer, Run> e : running.entrySet()) {
            Run r = e.getValue();
            w.complete(CPUS, tid(e.getKey()), r.comm() + " " + r.pid(), "sched", r.startNs(), Math.max(0, endNs - r.startNs()),
                Map.of("state", "running at the end of the recording"));
            slices++;
        }
        running.clear();
    }

    /** @return slices written */
    long slices() {
        return slices;
    }
}
