package dev.dfx.export;

import java.util.Arrays;
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
 *
 * <p>A recording has millions of switches on a few cpus among a few hundred tasks: each cpu's running task is one
 * object refilled at every switch (the first {@value #DIRECT} cpus found by index, the rest by a map), and the slice
 * names come from {@link SliceNames}, so a switch allocates nothing but what the sink keeps. Not thread-safe.
 */
final class CpuRuns {
    /** Process id of the cpu swimlanes. */
    static final int CPUS = 1;
    /** Cpus whose run and named lane are found by index; a cpu number above (a damaged or huge one) goes by map. */
    static final int DIRECT = 1024;

    /** The task running on one cpu since {@code startNs}; refilled at each switch. */
    private static final class Run {
        String comm;
        int pid;
        long startNs;
    }

    private final TraceSink w;
    private final TraceRows rows;
    /** Every cpu's run, in cpu order for {@link #finish}. */
    private final Map<Integer, Run> running = new TreeMap<>();
    /** The runs of cpus below {@value #DIRECT}, by cpu; null for a cpu without a switch yet. */
    private final Run[] direct = new Run[DIRECT];
    /** Whether the lane of each cpu below {@value #DIRECT} is named. */
    private final boolean[] named = new boolean[DIRECT];
    private final SliceNames names = new SliceNames();
    private long slices;
    /**
     * The args of the slice being drawn, refilled per slice where the sink
     * lends none ({@link AsyncTraceSink#argsFor}).
     */
    private final TraceArgs args = new TraceArgs();

    CpuRuns(TraceSink w, TraceRows rows) {
        this.w = w;
        this.rows = rows;
        w.process(CPUS, "CPUs", 0);
    }

    /** @return the tid of cpu {@code cpu}'s swimlane, named on first use */
    int tid(int cpu) {
        if (cpu >= 0 && cpu < DIRECT && named[cpu]) {
            return (cpu + 1) * TraceRows.SPAN;
        }
        int tid = rows.tid(CPUS, (cpu + 1) * TraceRows.SPAN, "CPU ", cpu, "", 0);
        if (cpu >= 0 && cpu < DIRECT) {
            named[cpu] = true;
        }
        return tid;
    }

    /**
     * A {@code sched_switch} on {@code cpu} at {@code ns}: ends the running task's slice, starts the next task's.
     *
     * @param cpu       a cpu number, {@code >= 0}
     * @param prevState how perf prints the switched-out task's state (e.g. {@code S}, {@code R+})
     */
    void switched(int cpu, long ns, String prevComm, int prevPid, String prevState, String nextComm, int nextPid) {
        int tid = tid(cpu);
        Run run = cpu < DIRECT ? direct[cpu] : running.get(cpu);
        if (run == null) {
            run = new Run();
            running.put(cpu, run);
            if (cpu < DIRECT) {
                direct[cpu] = run;
            }
        } else {
            TraceArgs args = AsyncTraceSink.argsFor(w, this.args).add("prev_state", prevState);
            String name = names.of(prevComm, prevPid);
            if (run.pid != prevPid) {
                args.add("switched_out", name);
                name = names.of(run.comm, run.pid);
            }
            w.complete(CPUS, tid, name, "sched", run.startNs, Math.max(0, ns - run.startNs), args);
            slices++;
        }
        run.comm = nextComm;
        run.pid = nextPid;
        run.startNs = ns;
    }

    /** Ends every running task's slice at {@code endNs}, the last timestamp of the recording. */
    void finish(long endNs) {
        for (Map.Entry<Integer, Run> e : running.entrySet()) {
            Run r = e.getValue();
            w.complete(CPUS, tid(e.getKey()), names.of(r.comm, r.pid), "sched", r.startNs,
                Math.max(0, endNs - r.startNs), Map.of("state", "running at the end of the recording"));
            slices++;
        }
        running.clear();
        Arrays.fill(direct, null);
    }

    /** @return slices written */
    long slices() {
        return slices;
    }
}
